#!/bin/sh
# Build the lab's disk image from Debian packages alone (debootstrap), or reuse a cached one.
#   lab/image/build.sh            print the image directory (building it first if needed)
# The cache key is a digest of the package list, the suite, the mirror and this script; a
# change to any of them builds a new image. Needs root (debootstrap and chroot).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
SUITE=${NASPLAN_LAB_SUITE:-bookworm}
MIRROR=${NASPLAN_LAB_MIRROR:-http://deb.debian.org/debian}
CACHE=${NASPLAN_LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nasplan-lab}
SIZE=${NASPLAN_LAB_IMAGE_SIZE:-2G}

packages=$(grep -v '^[[:space:]]*#' "$HERE/packages.txt" | grep -v '^[[:space:]]*$' | sort)
digest=$( { printf '%s\n' "$SUITE" "$MIRROR" "$packages"; cat "$0"; } | sha256sum | cut -c1-16)
OUT="$CACHE/image-$digest"
if [ -f "$OUT/ready" ]; then
  printf '%s\n' "$OUT"
  exit 0
fi

[ "$(id -u)" -eq 0 ] || { echo "lab/image/build.sh: debootstrap needs root" >&2; exit 1; }
for tool in debootstrap mkfs.ext4; do
  command -v "$tool" >/dev/null || { echo "lab/image/build.sh: $tool is missing" >&2; exit 1; }
done

mkdir -p "$CACHE"
WORK=$(mktemp -d "$CACHE/build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
ROOTFS="$WORK/rootfs"
include=$(printf '%s' "$packages" | tr '\n' ',')
echo "lab: building image $digest (debootstrap $SUITE from $MIRROR)" >&2
debootstrap --variant=minbase --include="$include" "$SUITE" "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
  || { tail -30 "$WORK/debootstrap.log" >&2; exit 1; }

# The guest: root on the first disk, no console login, the lab's job run at every boot.
printf '/dev/vda / ext4 defaults 0 1\n' > "$ROOTFS/etc/fstab"
printf 'lab\n' > "$ROOTFS/etc/hostname"
printf '127.0.0.1 localhost\n' > "$ROOTFS/etc/hosts"
# NetworkManager manages only the profiles the lab (or a bundle) creates: no DHCP on every NIC.
printf '[main]\nno-auto-default=*\n' > "$ROOTFS/etc/NetworkManager/conf.d/90-lab.conf"
cat > "$ROOTFS/usr/local/sbin/nasplan-lab-boot" <<'BOOT'
#!/bin/sh
# Unpack the job handed over as a tar stream on the second disk and run it.
set -eu
rm -rf /run/lab && mkdir -p /run/lab
tar -xf /dev/vdb -C /run/lab
exec sh /run/lab/boot.sh
BOOT
chmod 755 "$ROOTFS/usr/local/sbin/nasplan-lab-boot"
cat > "$ROOTFS/etc/systemd/system/nasplan-lab.service" <<'UNIT'
[Unit]
Description=nasplan lab job
After=local-fs.target NetworkManager.service
Wants=NetworkManager.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/nasplan-lab-boot
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
UNIT
chroot "$ROOTFS" systemctl enable nasplan-lab.service >/dev/null 2>&1
# Nothing the lab does not use starts at boot.
chroot "$ROOTFS" systemctl disable nfs-server.service rpcbind.service rpcbind.socket >/dev/null 2>&1 || true
chroot "$ROOTFS" systemctl mask systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer >/dev/null 2>&1 || true
rm -f "$ROOTFS"/var/cache/apt/archives/*.deb
# The Ansible journey logs in as root with a key handed over in the job (never a password).
mkdir -p "$ROOTFS/root/.ssh" && chmod 700 "$ROOTFS/root/.ssh"
# Every older image is replaced by this one.
for old in "$CACHE"/image-*; do
  [ "$old" = "$OUT" ] || rm -rf "$old"
done

mkdir -p "$WORK/out"
cp "$ROOTFS"/boot/vmlinuz-* "$WORK/out/vmlinuz"
cp "$ROOTFS"/boot/initrd.img-* "$WORK/out/initrd.img"
mkfs.ext4 -q -L labroot -d "$ROOTFS" "$WORK/out/root.img" "$SIZE"
printf '%s\n' "$packages" > "$WORK/out/packages.txt"
dpkg-query --admindir="$ROOTFS/var/lib/dpkg" -W -f '${Package} ${Version}\n' > "$WORK/out/versions.txt"
date -u +%FT%TZ > "$WORK/out/ready"
rm -rf "$OUT"
mv "$WORK/out" "$OUT"
echo "lab: image ready in $OUT" >&2
printf '%s\n' "$OUT"
