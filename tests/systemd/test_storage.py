"""The store on a file system lost at power-off (raspi-config's overlay) is found at start and
said loudly: in the log and as a standing notice on the table display."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from longhall.server.appliance.storage import NOTICE, mount_of, parse_mountinfo, volatile_store
from tests.support import Phone, ServerProcess

# raspi-config's overlay file system: / is an overlay over the SD card's root partition
OVERLAY = """\
22 1 179:2 / /media/root-ro ro,relatime shared:1 - ext4 /dev/mmcblk0p2 ro
23 1 0:21 / /media/root-rw rw,relatime shared:2 - tmpfs tmpfs-root rw
24 0 0:22 / / rw,noatime shared:3 - overlay overlayroot rw,lowerdir=/media/root-ro
25 24 179:1 / /boot/firmware rw,relatime shared:4 - vfat /dev/mmcblk0p1 rw
"""
# the documented way out: the store on its own ext4 partition (one with a space in its name)
PARTITION = OVERLAY + "26 24 179:3 / /var/lib/long\\040hall rw,relatime - ext4 /dev/mmcblk0p3 rw\n"


def test_the_overlay_file_system_is_found(tmp_path: Path) -> None:
    info = tmp_path / "mountinfo"
    info.write_text(OVERLAY)
    found = volatile_store(Path("/var/lib/longhall"), info)
    assert found is not None and found.fstype == "overlay" and found.point == "/"
    assert volatile_store(Path("/boot/firmware/x"), info) is None  # vfat survives


def test_a_writable_partition_is_fine(tmp_path: Path) -> None:
    info = tmp_path / "mountinfo"
    info.write_text(PARTITION)
    mount = mount_of(Path("/var/lib/long hall"), parse_mountinfo(PARTITION))
    assert mount is not None and mount.fstype == "ext4"
    assert volatile_store(Path("/var/lib/long hall/sub"), info) is None
    assert volatile_store(Path("/var/lib/long hallway"), info) is not None  # not under it
    assert volatile_store(Path("/var/lib/x"), tmp_path / "no-such-file") is None


@pytest.mark.skipif(not Path("/dev/shm").is_dir(), reason="no /dev/shm (tmpfs) here")
def test_a_real_server_on_a_ram_disk_says_so(tmp_path: Path) -> None:
    data = Path(tempfile.mkdtemp(prefix="longhall-store-", dir="/dev/shm"))
    volatile = volatile_store(data)
    if volatile is None:
        pytest.skip("/dev/shm is not a RAM file system here")
    server = ServerProcess(data)
    server.log = tmp_path / "server.log"
    try:
        server.start()
        display = Phone(server.url, name="table display").connect()
        try:
            table = display.wait(lambda m: bool(m["table"]["notices"]))["table"]
        finally:
            display.disconnect()
        (notice,) = table["notices"]
        assert notice["code"] == NOTICE and notice["params"]["fstype"] == volatile.fstype
        assert "every game will be lost" in notice["message"]
        assert "every game will be lost" in server.log.read_text()  # and in the log
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)


def test_a_server_on_a_disk_shows_no_notice(tmp_path: Path) -> None:
    if volatile_store(tmp_path) is not None:
        pytest.skip("the temporary directory is itself in RAM here")
    server = ServerProcess(tmp_path)
    try:
        server.start()
        display = Phone(server.url, name="table display").connect()
        try:
            assert display.latest is not None and display.latest["table"]["notices"] == []
        finally:
            display.disconnect()
    finally:
        server.stop()
