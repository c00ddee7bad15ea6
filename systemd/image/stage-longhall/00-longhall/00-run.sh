#!/bin/bash -e
# pi-gen, on the build machine: the release file for the next step, and longhall.txt on the boot
# partition, for the owner to edit before the first boot
install -m 0644 files/longhall-release.tar "${ROOTFS_DIR}/tmp/longhall-release.tar"
install -m 0644 files/longhall.txt "${ROOTFS_DIR}/boot/firmware/longhall.txt"
