#!/bin/bash -e
# pi-gen, inside the image: Longhall installed by the release's own install.sh, exactly as on a
# running Pi, but with nothing started (--no-start: the units start at the first boot, where
# longhall.txt is applied). The hardware watchdog is named: this build machine is no Pi.
mkdir -p /tmp/longhall-release
tar -xf /tmp/longhall-release.tar -C /tmp/longhall-release
installer=(/tmp/longhall-release/longhall-*/systemd/install.sh)
"${installer[0]}" --no-start --hardware-watchdog 15
rm -rf /tmp/longhall-release /tmp/longhall-release.tar
