#!/bin/sh
# The lab's database host: applies the bundle for real, reboots, verifies, rolls back.
# Reads /run/lab/host/ (written by the lab driver):
#   setup     KEY VALUE lines: hostname, oracle_uid, oracle_gid, filer (an address to wait
#             for), path (INTERFACE ADDRESS/PREFIX: the storage NICs as the host had them),
#             mode (scripts: the host scripts; ansible: the playbook, run from outside over
#             SSH), mgmt (ansible: the interface the controller reaches)
#   scripts   the host scripts in the runbook's order, relative to the bundle
#   rollback  the rollback script, relative to the bundle
#   verify    the verify script, relative to the bundle
#   mounts    the planned mount points
#   authorized_keys  ansible: the controller's public key for root
#   keys      the kernel keys to record (sysctl names)
#   bundle/   the bundle as the user downloads it
# Results go to /var/lib/nasplan-lab/out, written as a tar stream to the third disk after each
# phase. The phase survives the reboots in /var/lib/nasplan-lab/phase.
set -u
JOB=/run/lab/host
LAB=/var/lib/nasplan-lab
OUT=$LAB/out
BUNDLE=$JOB/bundle
mkdir -p "$OUT"
phase=$(cat "$LAB/phase" 2>/dev/null || echo 1)
log() { printf 'LAB-HOST: %s\n' "$*" > /dev/console; printf '%s\n' "$*" >> "$OUT/journey.log"; }
setting() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$JOB/setup"; }

save() {
  tar -cf /dev/vdc -C "$LAB" out
  sync
}

# capture NAME: the state the journey compares: watched files, kernel keys, MTUs, NFS mounts.
capture() {
  {
    echo "## files"
    # NetworkManager rewrites a whole profile on any change: its MTU is compared below instead.
    for f in /etc/fstab /etc/sysctl.conf /etc/sysctl.d/* /etc/modprobe.d/* /etc/idmapd.conf \
      /etc/nfs.conf /etc/nfsmount.conf; do
      [ -f "$f" ] || continue
      printf '%s %s\n' "$f" "$(sha256sum < "$f" | cut -c1-16)"
    done
    echo "## keys"
    while read -r key; do
      printf '%s = %s\n' "$key" "$(sysctl -n "$key" 2>/dev/null | tr -s ' \t' '  ' || echo '(absent)')"
    done < "$JOB/keys"
    echo "## mtu"
    awk '$1 == "path" { print $2 }' "$JOB/setup" | while read -r ifname; do
      conn=$(nmcli -t -f GENERAL.CONNECTION device show "$ifname" 2>/dev/null | sed 's/^GENERAL.CONNECTION://')
      saved=$(nmcli -t -f 802-3-ethernet.mtu connection show "$conn" 2>/dev/null | sed 's/^802-3-ethernet.mtu://')
      printf '%s live %s profile %s\n' "$ifname" "$(cat "/sys/class/net/$ifname/mtu")" "$saved"
    done
    echo "## nfs mounts"
    awk '$3 ~ /^nfs/ { print $1, $2, $3 }' /proc/mounts | sort
  } > "$OUT/state-$1.txt"
}

# run_step NAME COMMAND...: run, keep the output and the exit status.
run_step() {
  name=$1
  shift
  "$@" > "$OUT/$name.log" 2>&1
  rc=$?
  printf '%s %s\n' "$name" "$rc" >> "$OUT/steps.txt"
  log "$name: exit $rc"
}

# io NAME: write and read back a file on every mount as the Oracle owner. The file is made
# by mktemp (an exclusive create): RAC nodes share mounts and, booted alike, can share a PID.
io() {
  uid=$(setting oracle_uid)
  gid=$(setting oracle_gid)
  while read -r dir; do
    if setpriv --reuid="$uid" --regid="$gid" --clear-groups sh -c \
      'f=$(mktemp "$1/nasplan-lab.XXXXXXXX") && printf "lab %s\n" "$1" > "$f" && sync && [ "$(cat "$f")" = "lab $1" ] && rm -f "$f"' sh "$dir" \
      > /dev/null 2>> "$OUT/io-$1.err"; then
      printf '%s ok\n' "$dir"
    else
      printf '%s failed\n' "$dir"
    fi
  done < "$JOB/mounts" > "$OUT/io-$1.txt"
}

wait_for_mounts() {
  for _ in $(seq 1 90); do
    missing=0
    while read -r dir; do
      awk -v mp="$dir" '$2 == mp { f = 1 } END { exit !f }' /proc/mounts || missing=1
    done < "$JOB/mounts"
    [ "$missing" -eq 0 ] && return 0
    sleep 1
  done
  return 1
}

each_script() {
  suffix=$1
  shift
  n=0
  while read -r script; do
    n=$((n + 1))
    run_step "$suffix-$n-$(basename "$script" .sh)" sh "$BUNDLE/$script" "$@"
  done < "$JOB/scripts"
}

# NetworkManager brings the storage profiles up at boot: wait for it before reading them.
nm-online -s -q -t 60 || log "NetworkManager did not finish starting within 60 s"

setup_host() {
  log "phase 1: a host as the team finds it"
  name=$(setting hostname)
  hostnamectl set-hostname "$name" 2>/dev/null || hostname "$name"
  printf '%s\n' "$name" > /etc/hostname
  awk '$1 == "path" { print $3 }' "$JOB/setup" | head -1 | cut -d/ -f1 | while read -r address; do
    printf '%s %s\n' "$address" "$name" >> /etc/hosts
  done
  # The host's own settings before nasplan comes (lab/nasplan_lab/journey.py, SITE_SYSCTLS).
  awk '$1 == "site" { print $2 " = " $3 }' "$JOB/setup" > /etc/sysctl.d/50-site.conf
  sysctl -q -p /etc/sysctl.d/50-site.conf
  groupadd -g "$(setting oracle_gid)" oinstall
  useradd -u "$(setting oracle_uid)" -g oinstall -m oracle
  n=0
  awk '$1 == "path" { print $2, $3 }' "$JOB/setup" | while read -r ifname address; do
    n=$((n + 1))
    nmcli connection add type ethernet ifname "$ifname" con-name "storage$n" \
      ipv4.method manual ipv4.addresses "$address" ipv6.method disabled > /dev/null
    nmcli connection up "storage$n" > /dev/null
  done
  # The filer boots beside this host; under emulation on a busy machine it can take minutes
  # to serve NFS. Wait until its portmapper lists NFS (program 100003), up to 10 minutes.
  for filer in $(setting filer); do
    ready=no
    for _ in $(seq 1 300); do
      if rpcinfo -p "$filer" 2> /dev/null | grep -qw 100003; then ready=yes; break; fi
      sleep 2
    done
    log "the filer $filer serves NFS: $ready"
  done
  capture before
  # The hardest start: a host where NFS has not been used since boot, so the sunrpc module and
  # its kernel keys are not there yet (Debian loads it at boot for rpc_pipefs).
  systemctl stop rpc-statd.service rpcbind.socket rpcbind.service run-rpc_pipefs.mount \
    var-lib-nfs-rpc_pipefs.mount > /dev/null 2>&1
  modprobe -r nfsv4 nfsv3 nfs lockd sunrpc > /dev/null 2>&1
  if [ -d /proc/sys/sunrpc ]; then
    log "the sunrpc module stays loaded"
  else
    log "the sunrpc module is not loaded (as on a host that has not used NFS since boot)"
  fi
  capture before-dry-run
}

applied_checks() {
  cp /proc/mounts "$OUT/mounts-applied.txt"
  run_step verify-applied sh "$BUNDLE/$(cat "$JOB/verify")" --report "$OUT/verify-applied.txt"
  # The read-only collector, as a team would run it for an audit of the host as built.
  if [ -f "$BUNDLE/verify/collect.sh" ]; then
    run_step collect-applied sh "$BUNDLE/verify/collect.sh" "$OUT/collect-applied"
  fi
  io applied
  capture applied
}

rebooted_checks() {
  log "after the reboot"
  if wait_for_mounts; then log "every planned mount is back"; else log "some mounts did not come back"; fi
  cp /proc/mounts "$OUT/mounts-rebooted.txt"
  run_step verify-rebooted sh "$BUNDLE/$(cat "$JOB/verify")" --report "$OUT/verify-rebooted.txt"
  io rebooted
  capture rebooted
}

reboot_into() {
  echo "$1" > "$LAB/phase"
  save
  log "rebooting"
  systemctl reboot
  exit 0
}

mode=$(setting mode)
case "$mode:$phase" in
scripts:1)
  setup_host
  log "phase 1: dry runs, then --apply in the runbook's order"
  each_script dry
  capture after-dry-run
  each_script apply --apply
  applied_checks
  each_script again --apply
  capture applied-again
  reboot_into 2
  ;;
scripts:2)
  rebooted_checks
  log "phase 2: database stopped (none runs here), file systems unmounted, then the rollback"
  while read -r dir; do umount "$dir" >> "$OUT/umount.log" 2>&1; done < "$JOB/mounts"
  run_step rollback-dry sh "$BUNDLE/$(cat "$JOB/rollback")"
  run_step rollback-apply sh "$BUNDLE/$(cat "$JOB/rollback")" --apply
  capture rolled-back
  reboot_into 3
  ;;
scripts:3)
  log "phase 3: after the rollback and a reboot"
  capture rolled-back-rebooted
  ;;
ansible:1)
  setup_host
  mgmt=$(setting mgmt)
  ip address add 10.0.2.15/24 dev "$mgmt"
  ip link set dev "$mgmt" up
  install -m 600 "$JOB/authorized_keys" /root/.ssh/authorized_keys
  systemctl start ssh.service
  log "READY-FOR-ANSIBLE"
  for _ in $(seq 1 900); do
    [ -f /run/nasplan-lab-continue ] && break
    sleep 1
  done
  log "the controller is done"
  applied_checks
  reboot_into 2
  ;;
ansible:2)
  rebooted_checks
  ;;
*)
  log "nothing to do in mode $mode, phase $phase"
  ;;
esac
save
log "DONE"
systemctl poweroff
