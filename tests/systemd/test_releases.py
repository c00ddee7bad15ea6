"""Release files: built from the checkout, installed offline by ``install.sh --update FILE`` into a
folder of their own, checked on a spare port, switched to with one link; a broken one leaves the
table as it was, and ``--rollback`` goes back. The store is kept across all of it.

systemctl is a stand-in that (re)starts a real ``longhall serve`` from the prefix's ``current``
release, as the unit does; everything else (tar, sha256sum, venv, pip with no index, the server,
the health checks) is real.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import sysconfig
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.support import ROOT, free_port

from .conftest import INSTALL, SYSTEMD

pytestmark = pytest.mark.slow


def host_target() -> str:
    """This machine's platform and Python, as make-release takes them."""
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{platform}:{sys.version_info.major}.{sys.version_info.minor}"


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A release file built from the checkout, with wheels for this machine only."""
    out = tmp_path_factory.mktemp("release")
    done = subprocess.run(
        [sys.executable, str(SYSTEMD / "make-release"), "--out", str(out), "--target",
         host_target()],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    (made,) = out.glob("longhall-*.tar")
    return made


def repack(release: Path, out: Path, change: dict[str, bytes]) -> Path:
    """The release with some files changed (and its checksums made to match them)."""
    with tarfile.open(release) as tar:
        members = {m.name: (m, tar.extractfile(m).read() if m.isfile() else None)  # type: ignore[union-attr]
                   for m in tar.getmembers()}  # fmt: skip
    (top,) = {name.split("/")[0] for name in members}
    files = {name: data for name, (m, data) in members.items() if data is not None}
    for name, data in change.items():
        files[f"{top}/{name}"] = data
    import hashlib

    sums = "".join(
        f"{hashlib.sha256(data).hexdigest()}  {name.split('/', 1)[1]}\n"
        for name, data in sorted(files.items())
        if not name.endswith("/SHA256SUMS")
    )
    files[f"{top}/SHA256SUMS"] = sums.encode()
    with tarfile.open(out, "w") as tar:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = members[name][0].mode if name in members else 0o644
            tar.addfile(info, io.BytesIO(data))
    return out


class Pi:
    """A prefix, an /etc/longhall and a system root of a test's own, and a systemctl stand-in
    that runs the real server of the ``current`` release on a port of this machine."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.prefix = root / "opt" / "longhall"
        self.etc = root / "etc" / "longhall"
        self.data = root / "var" / "lib" / "longhall"
        self.port = free_port()
        self.pidfile = root / "server.pid"
        for folder in (self.etc, self.data, root / "etc" / "systemd" / "system", root / "bin"):
            folder.mkdir(parents=True)
        (self.etc / "install.conf").write_text(
            f"port={self.port}\nkiosk=0\nprefix={self.prefix}\nhotspot=0\n"
        )
        systemctl = root / "bin" / "systemctl"
        systemctl.write_text(
            "#!/bin/sh\n"
            f'echo "$*" >> {root}/systemctl.log\n'
            '[ "$1" = restart ] && [ "$2" = longhall.service ] || exit 0\n'
            f'[ -f {self.pidfile} ] && kill "$(cat {self.pidfile})" 2>/dev/null\n'
            f'while [ -f {self.pidfile} ] && kill -0 "$(cat {self.pidfile})" 2>/dev/null; do '
            "sleep 0.05; done\n"
            f"{self.prefix}/current/.venv/bin/longhall serve --host 127.0.0.1 --port {self.port} "
            f"--data-dir {self.data} --gpio off >> {root}/server.log 2>&1 &\n"
            f"echo $! > {self.pidfile}\n"
        )
        systemctl.chmod(0o755)

    def install(self, *options: str) -> subprocess.CompletedProcess[str]:
        env = {
            **os.environ,
            "PATH": f"{self.root / 'bin'}:{os.environ['PATH']}",
            "LONGHALL_ETC": str(self.etc),
            "LONGHALL_SYSROOT": str(self.root),
        }
        return subprocess.run(
            ["bash", str(INSTALL), *options], capture_output=True, text=True, env=env, timeout=600
        )

    def current(self) -> str:
        return os.readlink(self.prefix / "current")

    def releases(self) -> list[str]:
        return sorted(p.name for p in (self.prefix / "releases").iterdir())

    def pid(self) -> int:
        return int(self.pidfile.read_text())

    def health(self) -> dict[str, object]:
        answer: dict[str, object] = requests.get(
            f"http://127.0.0.1:{self.port}/healthz", timeout=10
        ).json()
        return answer

    def table_code(self) -> str:
        with sqlite3.connect(self.data / "longhall.sqlite3") as db:
            (code,) = db.execute("SELECT value FROM meta WHERE key = 'table_code'").fetchone()
        return str(code)

    def stop(self) -> None:
        if self.pidfile.exists():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid(), signal.SIGTERM)


@pytest.fixture
def pi(tmp_path: Path) -> Iterator[Pi]:
    if os.geteuid() != 0:
        pytest.skip("install.sh writes files owned by root: run as root (CI does)")
    made = Pi(tmp_path / "pi")
    yield made
    made.stop()


def test_update_failed_update_and_rollback_keep_the_store(
    pi: Pi, release: Path, tmp_path: Path
) -> None:
    first = pi.install("--update", str(release))
    assert first.returncode == 0, first.stdout + first.stderr
    assert "How long each step took" in first.stdout
    a = pi.current()
    assert pi.health()["status"] == "ok"
    code, server = pi.table_code(), pi.pid()
    # the units run the current release
    unit = (pi.root / "etc" / "systemd" / "system" / "longhall.service").read_text()
    assert f"ExecStart={pi.prefix}/current/.venv/bin/longhall serve --port {pi.port}" in unit

    # an update: a folder of its own, checked, switched to; the table restarted on it
    newer = repack(release, tmp_path / "newer.tar", {})
    update = pi.install("--update", str(newer))
    assert update.returncode == 0, update.stdout + update.stderr
    b = pi.current()
    assert b != a and os.readlink(pi.prefix / "previous") == a
    assert "on a spare port with a copy of the store" in update.stdout  # checked, then switched
    assert pi.pid() != server and pi.health()["status"] == "ok"
    assert pi.table_code() == code
    server = pi.pid()

    # a broken wheel: pip refuses it, nothing switches, the running table is not touched
    with tarfile.open(release) as tar:
        names = tar.getnames()
    wheel = next(n for n in names if n.endswith(".whl") and "/wheelhouse/" not in n)
    broken = repack(release, tmp_path / "broken.tar", {Path(wheel).name: b"PK\x03\x04 broken"})
    failed = pi.install("--update", str(broken))
    assert failed.returncode != 0
    assert "the table runs on as it was" in failed.stderr, failed.stderr[-2000:]
    assert pi.current() == b and pi.pid() == server and pi.health()["status"] == "ok"
    assert pi.releases() == sorted([Path(a).name, Path(b).name])  # nothing half made is left
    assert pi.table_code() == code

    # a damaged file: its checksums say so before anything is unpacked into a release
    damaged = tmp_path / "damaged.tar"
    data = bytearray(release.read_bytes())
    lock_at = data.find(b"flask==")
    data[lock_at : lock_at + 5] = b"FLASK"
    damaged.write_bytes(bytes(data))
    assert any(n.endswith("requirements.lock") for n in names)
    refused = pi.install("--update", str(damaged))
    assert refused.returncode == 2 and "is damaged" in refused.stderr
    assert pi.current() == b and pi.pid() == server

    # back to the release before: the store is where it was
    back = pi.install("--rollback")
    assert back.returncode == 0, back.stdout + back.stderr
    assert pi.current() == a and os.readlink(pi.prefix / "previous") == b
    assert pi.health()["status"] == "ok" and pi.pid() != server
    assert pi.table_code() == code
    assert json.loads((pi.prefix / a / "release.json").read_text())["version"] == "0.1.0"


def test_make_release_says_what_it_cannot_fetch(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SYSTEMD / "make-release"), "--out", str(tmp_path), "--target",
         "nonesuch_platform:3.11"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 1
    assert "no wheels for nonesuch_platform:3.11" in done.stderr
    (made,) = tmp_path.glob("longhall-*.tar")
    with tarfile.open(made) as tar:
        top = tar.getnames()[0].split("/")[0]
        manifest = json.loads(tar.extractfile(f"{top}/release.json").read())  # type: ignore[union-attr]
        lock = tar.extractfile(f"{top}/requirements.lock").read().decode()  # type: ignore[union-attr]
    assert "nonesuch_platform:3.11" in manifest["missing"]
    assert lock == ROOT.joinpath("requirements.lock").read_text()


def test_an_unpacked_release_installs_from_its_own_wheelhouse(
    release: Path, tmp_path: Path
) -> None:
    """The one-line install on a fresh Pi: the release file's own install.sh, no clone, no git,
    and nothing fetched from PyPI (Debian's packages only, after apt-get update)."""
    from .test_install import FRESH_DEBIAN, commands

    with tarfile.open(release) as tar:
        tar.extractall(tmp_path, filter="data")
    (folder,) = tmp_path.glob("longhall-*")
    installer = folder / "systemd" / "install.sh"
    done = subprocess.run(
        ["bash", str(installer), "--dry-run", "--prefix", str(tmp_path / "p")],
        capture_output=True, text=True, env={**os.environ, **FRESH_DEBIAN},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    steps = commands(done.stdout)
    assert steps[0] == "apt-get update"  # before any package is installed
    assert any(f"--find-links {folder}/wheelhouse --require-hashes" in s for s in steps)
    assert any(s.endswith(".whl") and "--no-deps" in s for s in steps)  # Longhall's own wheel
    assert not any("pip download" in s for s in steps)
