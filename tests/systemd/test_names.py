"""Names instead of addresses: longhall.local through avahi (the host name), a short name on the
hotspot's DNS, and the phones' connectivity checks sent to the table (its answers: see
test_connectivity.py), with port 80 forwarded to the server."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import render, systemd_analyze, unit
from .test_install import commands, dry_run, written

DNS = "/etc/NetworkManager/dnsmasq-shared.d/longhall.conf"


def test_the_pi_is_named_longhall(tmp_path: Path) -> None:
    out = dry_run("--prefix", str(tmp_path / "p")).stdout
    steps = commands(out)
    assert "hostnamectl set-hostname longhall" in steps
    rename, add = [s for s in steps if s.endswith("/etc/hosts")]
    # the edits as they would run, on copies of an /etc/hosts with and without the line
    copy = tmp_path / "hosts"
    for before, edit in (
        ("127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n::1\t\tlocalhost\n", rename),
        ("127.0.0.1\tlocalhost\n::1\t\tlocalhost\n", add),
    ):
        copy.write_text(before)
        subprocess.run(["bash", "-c", edit.removesuffix("/etc/hosts") + str(copy)], check=True)
        lines = copy.read_text().splitlines()
        assert sorted(lines) == ["127.0.0.1\tlocalhost", "127.0.1.1\tlonghall", "::1\t\tlocalhost"]
    assert "systemctl restart avahi-daemon" in steps
    assert "avahi-daemon" in next(s for s in steps if "apt-get install" in s)
    assert "name=longhall" in written(out, "/etc/longhall/install.conf").splitlines()

    steps = commands(dry_run("--prefix", str(tmp_path / "p"), "--name", "games-room").stdout)
    assert "hostnamectl set-hostname games-room" in steps
    steps = commands(dry_run("--prefix", str(tmp_path / "p"), "--keep-hostname").stdout)
    assert not any("hostnamectl" in s or "/etc/hosts" in s for s in steps)
    refused = dry_run("--name", "Long_Hall")
    assert refused.returncode == 2 and "a host name has lower-case letters" in refused.stderr


def test_the_hotspots_dns_answers_the_short_name_and_the_checks(tmp_path: Path) -> None:
    out = dry_run("--prefix", str(tmp_path / "p"), "--hotspot", "L").stdout
    conf = written(out, DNS)
    lines = [line for line in conf.splitlines() if not line.startswith("#")]
    assert lines[:2] == ["address=/longhall/10.42.0.1", "address=/longhall.lan/10.42.0.1"]
    for host in ("connectivitycheck.gstatic.com", "captive.apple.com", "www.msftconnecttest.com"):
        assert f"address=/{host}/10.42.0.1" in lines
    # the names the server's routes answer for are the names the DNS sends to the Pi
    from longhall.server.appliance.portal import CHECK_HOSTS

    assert {line.split("/")[1] for line in lines[2:]} == set(CHECK_HOSTS)
    dnsmasq = shutil.which("dnsmasq") or "/usr/sbin/dnsmasq"
    if not os.access(dnsmasq, os.X_OK):
        pytest.fail("dnsmasq is missing: apt install dnsmasq-base (./run tests does it)")
    (tmp_path / "dns.conf").write_text(conf)
    check = subprocess.run(
        [dnsmasq, "--test", f"--conf-file={tmp_path / 'dns.conf'}"], capture_output=True, text=True
    )
    assert check.returncode == 0 and "syntax check OK" in check.stderr, check.stderr

    # without the hotspot, its DNS file and port 80 go
    steps = commands(dry_run("--prefix", str(tmp_path / "p"), "--no-hotspot").stdout)
    assert f"rm -f {DNS}" in steps
    assert "systemctl disable --now longhall-port80.service" in steps


def test_port_80_of_the_hotspot_reaches_the_server(tmp_path: Path, prefix: Path) -> None:
    out = dry_run("--prefix", str(prefix), "--port", "8080", "--hotspot", "L").stdout
    rules = written(out, "/etc/longhall/port80.nft")
    assert "ip daddr 10.42.0.1 tcp dport 80 redirect to :8080" in rules
    # SSH is closed to the hotspot's players unless the owner opens it
    assert 'iifname "wlan0" tcp dport 22 drop' in rules
    opened = written(
        dry_run("--prefix", str(prefix), "--hotspot", "L", "--ssh-on-hotspot").stdout,
        "/etc/longhall/port80.nft",
    )
    assert "dport 22" not in opened and "delete table inet longhall_ssh" in opened
    steps = commands(out)
    assert steps.index("systemctl enable longhall-port80.service") < steps.index(
        "systemctl restart longhall.service"
    )
    nft = "/usr/sbin/nft"
    if not os.access(nft, os.X_OK):
        pytest.fail("nft is missing: apt install nftables (./run tests does it)")
    (tmp_path / "port80.nft").write_text(rules)
    (tmp_path / "ssh-open.nft").write_text(opened)
    if os.geteuid() == 0:  # nft checks a rule set through the kernel's netlink: root only
        for rule_set in ("port80.nft", "ssh-open.nft"):
            check = subprocess.run([nft, "-c", "-f", str(tmp_path / rule_set)], capture_output=True)
            assert check.returncode == 0, (rule_set, check.stderr)

    units = render(tmp_path / "units", prefix, "--hotspot", "L")
    service = unit(units / "longhall-port80.service")
    assert service["Service"]["ExecStart"] == ["/usr/sbin/nft -f /etc/longhall/port80.nft"]
    assert (
        written(out, "/etc/systemd/system/longhall-port80.service")
        == (units / "longhall-port80.service").read_text()
    )
    result = subprocess.run(
        [systemd_analyze(), "verify", str(units / "longhall-port80.service")],
        capture_output=True,
        text=True,
    )
    said = [line for line in (result.stdout + result.stderr).splitlines() if "longhall" in line]
    assert result.returncode == 0 and said == [], said
