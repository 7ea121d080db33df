#!/bin/bash
# The checks of `make test-systemd` (docs/testing-systemd.md), run as root inside the guest by
# imukit-test-check.service once systemd (PID 1) has booted the system. They do what a user does:
# install the package, enable the service, ask it over the system bus, walk, kill things.
# Each result is one line on the second serial port (/dev/ttyS1), which the host test reads:
#   CHECK PASS|FAIL NAME | DETAIL        NOTE TEXT        LOG TEXT        DONE
# The sensor is the emulated BMI160 of chips.sh on Debian's real bmi160 driver.
set -u
exec 3>/dev/ttyS1
NAME=io.github.imukit.StepService1 OBJ=/io/github/imukit/StepService1
UNIT=imu-stepd.service
oneline() { tr '\n\t' '  ' | tr -cd '[:print:]' | cut -c1-700; }
result() { printf 'CHECK %s %s | %s\n' "$1" "$2" "$(printf '%s' "$3" | oneline)" >&3; }
note() { printf 'NOTE %s\n' "$(printf '%s' "$*" | oneline)" >&3; }
# verdict NAME DETAIL 'CONDITION': PASS when the condition (shell code, run by eval) succeeds.
verdict() { if eval "$3"; then result PASS "$1" "$2"; else result FAIL "$1" "$2"; fi; }
show() { systemctl show -P "$1" "$UNIT"; }
# prop NAME [USER]: a property's value as busctl prints it without its type ("x 12" -> 12).
prop() {
    local out
    if [ -n "${2:-}" ]; then out=$(runuser -u "$2" -- busctl --system get-property "$NAME" "$OBJ" "$NAME" "$1" 2>&1)
    else out=$(busctl --system get-property "$NAME" "$OBJ" "$NAME" "$1" 2>&1); fi || { echo "ERROR: $out"; return 1; }
    out=${out#* }; out=${out#\"}; echo "${out%\"}"
}
# wait_prop NAME VALUE SECONDS: until the property reads VALUE; prints what it read last.
wait_prop() {
    local end=$((SECONDS + $3)) v
    while :; do v=$(prop "$1"); [ "$v" = "$2" ] || [ $SECONDS -ge $end ] && break; sleep 1; done
    echo "$v"
}
journal() { journalctl -u "$UNIT" -o cat --no-pager 2>&1; }
in_range() { [ "$1" -ge "$2" ] 2>/dev/null && [ "$1" -le "$3" ]; }

# A walk of N steps into the BMI160 (guest/walk.pl).
walk() { perl /usr/local/lib/imukit-test/walk.pl "$(cat /run/imukit-test/i2c-bus)" "$1"; }
# TodaySteps once it stopped changing for 3 s (the last steps are confirmed and handed over a
# little after the walk).
settled_steps() {
    local last now end=$((SECONDS + 40))
    last=$(prop TodaySteps)
    while [ $SECONDS -lt $end ]; do sleep 3; now=$(prop TodaySteps); [ "$now" = "$last" ] && break; last=$now; done
    echo "$last"
}

started=$SECONDS
state=$(systemctl is-system-running --wait 2>&1)
failed_units=$(systemctl list-units --state=failed --no-legend --plain 2>&1)
verdict boot "systemd $(systemctl --version | head -1 | cut -d' ' -f2) is PID 1 ($(cat /proc/1/comm)); system $state after ${SECONDS}s; failed units: ${failed_units:-none}" \
    '[ "$(cat /proc/1/comm)" = systemd ] && [ "$state" = running ]'
iio=$(for d in /sys/bus/iio/devices/iio:device*; do echo "$(basename "$d")=$(cat "$d/name")"; done)
trigger=$(cat /run/imukit-test/trigger 2>/dev/null || echo no)
verdict sensor-fixture "IIO devices: $iio; trigger imukit-tick: $trigger" \
    'grep -q bmi160 <<< "$iio"'
dev=$(for d in /sys/bus/iio/devices/iio:device*; do [ "$(cat "$d/name")" = bmi160 ] && basename "$d"; done | head -1)

# 1. Install the package on the running system: postinst makes the groups and the user, reloads
# systemd and udev; the service stays disabled until the user enables it.
t0=$SECONDS; out=$(dpkg -i /root/imukit.deb 2>&1); rc=$?
verdict install "dpkg -i exit $rc after $((SECONDS - t0)) s; $(tail -3 <<< "$out")" \
    '[ $rc = 0 ]'
enabled=$(systemctl is-enabled "$UNIT" 2>&1)
verdict install-disabled "is-enabled: $enabled; imu-stepd: $(id imu-stepd 2>&1)" \
    '[ "$enabled" = disabled ]'
# The udev rules (postinst's udevadm trigger) give group iio the device node and the buffer's
# attributes, for the devices present when the package came.
perm=$(stat -c '%n %G %a' "/dev/$dev" "/sys/bus/iio/devices/$dev/buffer/enable" "/sys/bus/iio/devices/$dev/trigger/current_trigger" 2>&1)
verdict udev-rules "$perm" \
    '[ "$(grep -c " iio [0-9]*6[0-9]$" <<< "$perm")" = 3 ]'

# A user who may only read, and one in group imukit who may also pause and reset.
useradd -m walker; useradd -m coach; usermod -aG imukit coach
# The sensor, as a user of a board with a software trigger writes it (docs/service.md).
if [ "$trigger" = yes ]; then source="iio:local:/bmi160?trigger=imukit-tick"; mode=buffered
else source="iio:local:/bmi160"; mode=polled; fi
printf '\n# make test-systemd: the emulated BMI160\nsource = %s\n' "$source" >> /etc/imukit/stepd.conf

# 2. Enable and start. Type=notify: `systemctl start` returns once the daemon sent READY=1.
t0=$SECONDS
out=$(systemctl enable --now imu-stepd 2>&1); rc=$?
verdict enable-now "systemctl enable --now: exit $rc after $((SECONDS - t0)) s; $out" \
    '[ $rc = 0 ]'
active="$(show ActiveState)/$(show SubState) Type=$(show Type) NotifyAccess=$(show NotifyAccess) WatchdogUSec=$(show WatchdogUSec) StatusText=$(show StatusText)"
verdict active-running "$active" \
    '[ "$(show ActiveState)/$(show SubState)/$(show Type)" = active/running/notify ]'
[ -n "$(show StatusText)" ] && result PASS ready-status "READY=1 came with STATUS: $(show StatusText)" || result FAIL ready-status "no STATUS= text from sd_notify"
pid=$(show MainPID)

# The service user with the sensor groups only, and the sandbox as the kernel sees it.
st=$(cat "/proc/$pid/status" 2>&1)
field() { awk -v k="$1:" '$1 == k { $1 = ""; print substr($0, 2) }' <<< "$st"; }
uid=$(field Uid | awk '{print $1}'); gid=$(field Gid | awk '{print $1}')
groups=$(for g in $(field Groups); do getent group "$g" | cut -d: -f1; done | sort | tr '\n' ' ')
want=$(printf '%s\n' i2c iio "$(id -gn imu-stepd)" | sort -u | tr '\n' ' ')
verdict service-user "uid $(getent passwd "$uid" | cut -d: -f1), gid $(getent group "$gid" | cut -d: -f1), groups: $groups(want $want)" \
    '[ "$(getent passwd "$uid" | cut -d: -f1)" = imu-stepd ] && [ "$groups" = "$want" ]'
sandbox="NoNewPrivs=$(field NoNewPrivs) Seccomp=$(field Seccomp) CapEff=$(field CapEff) CapBnd=$(field CapBnd)"
rootopts=$(awk '$5 == "/" { print $6 }' "/proc/$pid/mountinfo" | tail -1)
verdict sandbox "$sandbox; / mounted $rootopts for the service" \
    '[ "$(field NoNewPrivs)/$(field Seccomp)/$(field CapEff)/$(field CapBnd)" = 1/2/0000000000000000/0000000000000000 ] && [ "${rootopts%%,*}" = ro ]'
note "systemd-analyze security: $(systemd-analyze security "$UNIT" 2>&1 | tail -1)"

# History in the StateDirectory, written by the service user.
sd=$(stat -c '%U:%G %a' /var/lib/imu-stepd 2>&1); db=$(stat -c '%n %U:%G' /var/lib/imu-stepd/history.sqlite* 2>&1)
verdict state-directory "/var/lib/imu-stepd $sd; $db" \
    '[ "$sd" = "imu-stepd:imu-stepd 750" ] && grep -q "history.sqlite imu-stepd:" <<< "$db"'

# The journal has the daemon's own lines (sd_journal, not a file of its own).
j=$(journal)
verdict journal "$(grep -E 'serving|counting steps' <<< "$j")" \
    'grep -q "serving $NAME on the system bus; history in /var/lib/imu-stepd/history.sqlite" <<< "$j"'

# The sensor through the real driver, in the sandbox (DevicePolicy=closed, DeviceAllow=char-iio).
sensor=$(wait_prop SensorState running 60)
verdict sensor "SensorState $sensor, CaptureMode $(prop CaptureMode) (want $mode), Sensor $(prop Sensor), SensorMessage $(prop SensorMessage)" \
    '[ "$sensor/$(prop CaptureMode)" = "running/$mode" ]'
verdict clock-storage "ClockSynchronized $(prop ClockSynchronized) (the kernel set it from the RTC), StorageState $(prop StorageState)" \
    '[ "$(prop ClockSynchronized)/$(prop StorageState)" = true/ok ]'
verdict journal-sensor "$(journal | grep -E 'counting steps|sensor lost' | tail -3)" \
    'journal | grep -q "counting steps from iio:local:/bmi160 ($mode)"'

# 3. The system bus under the installed policy. Reading: root and any user.
r=$(busctl --system get-property "$NAME" "$OBJ" "$NAME" TodaySteps 2>&1); rc=$?
verdict bus-root-read "root: get-property TodaySteps: $r" \
    '[ $rc = 0 ]'
now_us=$(( $(date +%s) * 1000000 ))
r=$(runuser -u walker -- busctl --system get-property "$NAME" "$OBJ" "$NAME" TodaySteps 2>&1); rc1=$?
q=$(runuser -u walker -- busctl --system call "$NAME" "$OBJ" "$NAME" QueryTotals xx $((now_us - 3600000000)) "$now_us" 2>&1); rc2=$?
a=$(runuser -u walker -- busctl --system call "$NAME" "$OBJ" org.freedesktop.DBus.Properties GetAll s "$NAME" 2>&1 | cut -c1-120); rc3=$?
verdict bus-user-read "walker: TodaySteps: $r; QueryTotals: $q; GetAll: $a" \
    '[ "$rc1/$rc2/$rc3" = 0/0/0 ]'
# Control: refused to a user outside group imukit, by the bus policy.
r=$(runuser -u walker -- busctl --system call "$NAME" "$OBJ" "$NAME" Pause 2>&1); rc=$?
r2=$(runuser -u walker -- busctl --system call "$NAME" "$OBJ" "$NAME" Reset 2>&1); rc2=$?
verdict bus-user-denied "walker: Pause exit $rc: $r; Reset exit $rc2: $r2; Paused $(prop Paused)" \
    '[ $rc != 0 ] && [ $rc2 != 0 ] && grep -qi "access denied" <<< "$r$r2" && [ "$(prop Paused)" = false ]'
# ... and allowed to group imukit and to root.
r=$(runuser -u coach -- busctl --system call "$NAME" "$OBJ" "$NAME" Pause 2>&1); rc=$?; p1=$(wait_prop Paused true 5)
r2=$(runuser -u coach -- busctl --system call "$NAME" "$OBJ" "$NAME" Resume 2>&1); rc2=$?; p2=$(wait_prop Paused false 5)
verdict bus-group-control "coach (group imukit): Pause exit $rc $r -> Paused $p1; Resume exit $rc2 $r2 -> Paused $p2" \
    '[ "$rc/$p1/$rc2/$p2" = 0/true/0/false ]'
r=$(busctl --system call "$NAME" "$OBJ" "$NAME" Reset 2>&1); rc=$?
sleep 2; sensor=$(wait_prop SensorState running 60)
verdict bus-root-reset "root: Reset exit $rc $r; then SensorState $sensor" \
    '[ "$rc/$sensor" = 0/running ]'

# 4. Walk: 24 steps into the driver. 18 to 27 counted: a level that lands late (the guest starved
# by a loaded host) merges or splits a step; the kernel ring allows a quarter of the steps for
# that, and 3 above (Tests/kernel/test_sharing.py, the same walk).
sleep 3   # standing first: the pedometer settles on gravity
before=$(prop TodaySteps)
t0=$SECONDS; out=$(walk 24 2>&1); walked=$((SECONDS - t0))
steps=$(settled_steps)
verdict walk-counted "24 steps walked in $walked s (13.4 s planned) $out: TodaySteps $before -> $steps, Cadence $(prop Cadence), Activity $(prop Activity)" \
    'in_range "$((steps - before))" 18 27'

# 5. imu-steps --today asks the daemon, as any user.
sleep 7   # a commit (every 5 s) has stored the walk
out=$(runuser -u walker -- imu-steps --today 2>&1); rc=$?
js=$(runuser -u walker -- imu-steps --today --json 2>&1); rc2=$?
verdict today-tool "walker: imu-steps --today exit $rc: $out; --json exit $rc2: $js; TodaySteps $(prop TodaySteps)" \
    '[ "$rc/$rc2" = 0/0 ] && grep -q "^today: $(prop TodaySteps) steps" <<< "$out" && grep -q "\"steps\":$(prop TodaySteps)[,}]" <<< "${js// /}"'

# 6. A second daemon started by hand refuses, and leaves the running one and its files alone.
out=$(timeout 60 imu-stepd 2>&1); rc=$?
verdict second-daemon "root: imu-stepd exit $rc: $out; service $(show ActiveState), MainPID $pid -> $(show MainPID), NRestarts $(show NRestarts)" \
    '[ "$rc" = 1 ] && grep -q "already running (PID $pid)" <<< "$out" && [ "$(show MainPID)/$(show ActiveState)" = "$pid/active" ]'
root_owned=$(find /var/lib/imu-stepd ! -user imu-stepd 2>&1)
verdict second-daemon-files "files in /var/lib/imu-stepd not owned by imu-stepd: ${root_owned:-none}" \
    '[ -z "$root_owned" ]'

# 7. The watchdog: a daemon that stops petting (SIGSTOP) is killed and restarted by systemd after
# WatchdogSec, and the restart continues today's totals.
kept=$(prop TodaySteps)
wd=$(show WatchdogUSec)
t0=$SECONDS
kill -STOP "$pid"
end=$((SECONDS + 150))
while [ $SECONDS -lt $end ]; do
    [ "$(show MainPID)" != "$pid" ] && [ "$(show MainPID)" != 0 ] && [ "$(show ActiveState)/$(show SubState)" = active/running ] && break
    sleep 1
done
newpid=$(show MainPID); restarts=$(show NRestarts)
wdlog=$(journalctl -u "$UNIT" -o cat --no-pager | grep -iE 'watchdog' | head -3)
verdict watchdog "WatchdogUSec $wd; SIGSTOP at +0 s; active again after $((SECONDS - t0)) s with MainPID $pid -> $newpid, NRestarts $restarts; journal: $wdlog" \
    '[ "$restarts" = 1 ] && [ "$newpid" != "$pid" ] && [ "$(show ActiveState)" = active ] && grep -qi "watchdog timeout" <<< "$wdlog"'
wait_prop SensorState running 60 > /dev/null
after=$(wait_prop TodaySteps "$kept" 30)
verdict watchdog-keeps-today "TodaySteps $kept before the hang, $after after the restart" \
    '[ "$after" = "$kept" ]'

# 8. Stop: SIGTERM, the last commit, a clean exit; the client then says the daemon is not running.
t0=$SECONDS
out=$(systemctl stop imu-stepd 2>&1); rc=$?
verdict stop "systemctl stop exit $rc after $((SECONDS - t0)) s; $(show ActiveState), Result=$(show Result); journal: $(journal | tail -2)" \
    '[ "$rc/$(show ActiveState)/$(show Result)" = 0/inactive/success ] && journal | tail -6 | grep -q "stopped; totals committed"'
out=$(runuser -u walker -- imu-steps --today 2>&1); rc=$?
verdict today-not-running "walker: imu-steps --today exit $rc: $out" \
    '[ $rc = 1 ] && grep -q "not running" <<< "$out"'
systemctl start imu-stepd
after=$(wait_prop TodaySteps "$kept" 30)
verdict start-keeps-today "TodaySteps $kept before stop, $after after start" \
    '[ "$after" = "$kept" ]'

# 9. Removing the package stops the service (prerm) and leaves no daemon behind.
out=$(dpkg --remove imukit 2>&1); rc=$?
left=$(grep -lx imu-stepd /proc/[0-9]*/comm 2>/dev/null)
verdict remove "dpkg --remove exit $rc; service $(systemctl is-active "$UNIT" 2>&1); imu-stepd processes left: ${left:-none}" \
    '[ $rc = 0 ] && [ -z "$left" ]'

note "checks took $((SECONDS - started)) s"
journal | tail -40 | while IFS= read -r line; do printf 'LOG %s\n' "$(printf '%s' "$line" | oneline)" >&3; done
echo DONE >&3
