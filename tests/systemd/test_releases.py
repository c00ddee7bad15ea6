"""Release files: built from the checkout, installed offline by ``install.sh --update FILE`` into a
folder of their own, checked on a spare port, switched to with one link; a broken one leaves the
table as it was, and ``--rollback`` goes back. The store is kept across all of it.

systemctl is a stand-in that (re)starts a real ``longhall serve`` from the prefix's ``current``
release, as the unit does; everything else (tar, sha256sum, venv, pip with no index, the server,
the health checks) is real. The release an update finds is seeded (this venv's ``longhall``), not
installed: each test makes only the release it is about, from one release file a session.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import re
import signal
import socket
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


@pytest.fixture(scope="session")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A release file built from the checkout, with wheels for this machine only: built once a
    test session, by whichever of pytest-xdist's workers asks first (the others wait for it)."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # this session's folder, above each worker's own
    out = shared / "release"
    with open(shared / "release.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not list(out.glob("longhall-*.tar")):
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

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "PATH": f"{self.root / 'bin'}:{os.environ['PATH']}",
            "LONGHALL_ETC": str(self.etc),
            "LONGHALL_SYSROOT": str(self.root),
        }

    def install(self, *options: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", str(INSTALL), *options],
            capture_output=True, text=True, env=self.env(), timeout=600,
        )  # fmt: skip

    def seed(self) -> str:
        """The table as an earlier install left it, without making it again: a release folder
        whose venv's ``longhall`` is this venv's and whose scripts are this checkout's, ``current``
        pointing at it, its server running (it makes the store)."""
        name = "0.1.0-20260101-000000-1"
        made = self.prefix / "releases" / name
        (made / ".venv" / "bin").mkdir(parents=True)
        (made / ".venv" / "bin" / "longhall").symlink_to(Path(sys.executable).with_name("longhall"))
        (made / "systemd").symlink_to(SYSTEMD)
        (self.prefix / "current").symlink_to(f"releases/{name}")
        subprocess.run(
            [self.root / "bin" / "systemctl", "restart", "longhall.service"],
            env=self.env(), check=True, timeout=60,
        )  # fmt: skip
        subprocess.run(
            [sys.executable, str(SYSTEMD / "wait-for-healthz"), "--timeout", "300",
             f"http://127.0.0.1:{self.port}/healthz"],
            check=True, timeout=600,
        )  # fmt: skip
        return f"releases/{name}"

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


@pytest.mark.slow(seconds=90)
def test_an_update_switches_and_a_rollback_returns_with_the_store_kept(
    pi: Pi, release: Path
) -> None:
    a = pi.seed()
    code, server = pi.table_code(), pi.pid()

    # an update: a folder of its own, checked, switched to; the table restarted on it
    update = pi.install("--update", str(release))
    assert update.returncode == 0, update.stdout + update.stderr
    assert "How long each step took" in update.stdout
    b = pi.current()
    assert b != a and os.readlink(pi.prefix / "previous") == a
    assert "on a spare port with a copy of the store" in update.stdout  # checked, then switched
    # and the server that checked it has stopped (the Pi keeps its memory and the port)
    spare = re.search(r"a copy of the store \(port (\d+)\)", update.stdout)
    assert spare is not None
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", int(spare.group(1))), timeout=5).close()
    assert pi.pid() != server and pi.health()["status"] == "ok"
    assert pi.table_code() == code
    assert json.loads((pi.prefix / b / "release.json").read_text())["version"] == "0.1.0"
    assert not (pi.prefix / b / "wheelhouse").exists()  # its wheels are kept in the prefix's
    # the units run the current release
    unit = (pi.root / "etc" / "systemd" / "system" / "longhall.service").read_text()
    assert f"ExecStart={pi.prefix}/current/.venv/bin/longhall serve --port {pi.port}" in unit
    server = pi.pid()

    # back to the release before: the store is where it was
    back = pi.install("--rollback")
    assert back.returncode == 0, back.stdout + back.stderr
    assert pi.current() == a and os.readlink(pi.prefix / "previous") == b
    assert pi.health()["status"] == "ok" and pi.pid() != server
    assert pi.table_code() == code


@pytest.mark.slow(seconds=80)
def test_a_broken_or_damaged_release_leaves_the_table_as_it_was(
    pi: Pi, release: Path, tmp_path: Path
) -> None:
    a = pi.seed()
    code, server = pi.table_code(), pi.pid()

    # a broken wheel: pip refuses it, nothing switches, the running table is not touched
    with tarfile.open(release) as tar:
        names = tar.getnames()
    wheel = next(n for n in names if n.endswith(".whl") and "/wheelhouse/" not in n)
    broken = repack(release, tmp_path / "broken.tar", {Path(wheel).name: b"PK\x03\x04 broken"})
    failed = pi.install("--update", str(broken))
    assert failed.returncode != 0
    assert "the table runs on as it was" in failed.stderr, failed.stderr[-2000:]
    assert pi.current() == a and pi.pid() == server and pi.health()["status"] == "ok"
    assert pi.releases() == [Path(a).name]  # nothing half made is left
    assert not list((pi.prefix / "releases").glob(".unpack-*"))
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
    assert pi.current() == a and pi.pid() == server
    assert pi.releases() == [Path(a).name]


def test_make_release_says_what_it_cannot_fetch(tmp_path: Path) -> None:
    nowhere = tmp_path / "no-wheels"  # pip asks no index: an answer at once, with no network
    nowhere.mkdir()
    done = subprocess.run(
        [sys.executable, str(SYSTEMD / "make-release"), "--out", str(tmp_path), "--target",
         "nonesuch_platform:3.11"],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(nowhere)},
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
