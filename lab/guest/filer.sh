#!/bin/sh
# The lab's filer: a Linux kernel NFS server that stands in for the plan's filer.
# Reads /run/lab/filer/ (written by the lab driver from the bundle's filer commands):
#   paths    one line per storage path: INTERFACE ADDRESS/PREFIX MTU
#   exports  the /etc/exports text (directories and client rules)
#   dirs     one line per exported directory: PATH UID GID
#   hosts    extra /etc/hosts lines (how the filer resolves host names)
#   nfsd     NFS server settings: max_block_size BYTES, versions
set -eu
JOB=/run/lab/filer
log() { printf 'LAB-FILER: %s\n' "$*" > /dev/console; }

# The filer's addresses are static and set here; NetworkManager stays out of the way.
systemctl stop NetworkManager.service
hostnamectl set-hostname lab-filer 2>/dev/null || hostname lab-filer
cat "$JOB/hosts" >> /etc/hosts
while read -r ifname address mtu; do
  ip link set dev "$ifname" mtu "$mtu" up
  ip address add "$address" dev "$ifname"
done < "$JOB/paths"
while read -r dir uid gid; do
  mkdir -p "$dir"
  chown "$uid:$gid" "$dir"
  chmod 775 "$dir"
done < "$JOB/dirs"
cp "$JOB/exports" /etc/exports
block=$(awk '$1 == "max_block_size" { print $2 }' "$JOB/nfsd")
systemctl start rpcbind.service
systemctl start proc-fs-nfsd.mount 2>/dev/null || mount -t nfsd nfsd /proc/fs/nfsd
# The server's largest transfer can change only while no nfsd thread runs.
printf '%s\n' "$block" > /proc/fs/nfsd/max_block_size
systemctl start nfs-server.service
log "exports: $(exportfs -v | tr '\n' ' ')"
log "max_block_size $(cat /proc/fs/nfsd/max_block_size); versions $(cat /proc/fs/nfsd/versions)"
log "READY"
