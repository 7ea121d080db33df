#!/bin/sh
# imukit-walk ADDR REG LEVEL_MS STEPS LEVEL...: the ring's walk, run inside the guest and timed on
# the guest's own clock (docs/testing-kernel.md, "Sharing the accelerometer"). Writes the LEVELs in
# turn to register REG of the i2c-stub chip at ADDR on i2c-0, STEPS times round, one every LEVEL_MS,
# then the first level again (standing). Prints the guest's uptime (s, CLOCK_BOOTTIME: the clock
# the guest's IIO readers stamp samples with) after each write: the times the chip got its levels,
# from which the host judges the rhythm the walk really had.
#
# Between writes only shell builtins run: `read -t` on a FIFO sleeps and /proc/uptime tells the
# time, so no fork adds to a level. Each write is busybox's own i2cset applet (static: a fork and
# exec, 14 ms a write in the TCG guest at host load average 11, where the dynamically linked
# /usr/sbin/i2cset took 77 ms).
[ $# -ge 5 ] || { echo "usage: imukit-walk ADDR REG LEVEL_MS STEPS LEVEL..." >&2; exit 2; }
addr=$1 reg=$2 level_cs=$(($3 / 10)) steps=$4
shift 4

# At the same priority as the daemon that reads the chip: the walk's times then tell what CPU a
# process of the guest got (at nice -20 the walk kept its rhythm while the daemon, starved, counted
# 9 of 24: docs/testing-kernel.md).
fifo=/tmp/imukit-walk.$$
mkfifo "$fifo" && exec 9<> "$fifo" && rm -f "$fifo" || { echo "imukit-walk: no FIFO at $fifo to sleep on" >&2; exit 1; }

# now: $up = the guest's uptime as printed, $t = the same in centiseconds (/proc/uptime has two
# decimals; the leading 1 keeps a fraction such as 07 from reading as octal).
now() {
    read -r up _ < /proc/uptime
    t=$(( ${up%.*} * 100 + 1${up#*.} - 100 ))
}

# write LEVEL at the due time (centiseconds), then print when it was done.
write() {
    now
    if [ "$due" -gt "$t" ]; then
        wait_cs=$((due - t))
        read -r -t "$((wait_cs / 100)).$((wait_cs / 10 % 10))$((wait_cs % 10))" _ <&9
    fi
    busybox i2cset -f -y 0 "$addr" "$reg" "$1" || { echo "imukit-walk: i2cset -f -y 0 $addr $reg $1 failed" >&2; exit 1; }
    now
    echo "$up"
    # The next level is due one level after this one was due; when this write came more than half
    # a level late, one level after the write itself: a late guest never writes levels back to back
    # to catch up, which would merge steps on the chip.
    due=$((due + level_cs))
    if [ "$due" -lt $((t + level_cs / 2)) ]; then
        due=$((t + level_cs))
    fi
}

now
due=$t
n=0
while [ $n -lt "$steps" ]; do
    for level in "$@"; do
        write "$level"
    done
    n=$((n + 1))
done
write "$1"
