#!/bin/bash -e
# pi-gen: this stage starts from stage2's file system (Raspberry Pi OS Lite)
if [ ! -d "${ROOTFS_DIR}" ]; then
	copy_previous
fi
