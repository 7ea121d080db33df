#!/bin/sh
# The test machine's "hardware" (imukit-test-chips.service, before the checks): a BMI160 IMU as
# i2c-stub emulates it, bound to Debian's real bmi160 driver, and the ring's software trigger
# imukit-tick (Tests/kernel/trigger) for buffered capture, as the kernel ring sets them up
# (register presets: Tests/kernel/guest-init.sh and docs/testing-kernel.md).
# Writes the stub adapter's number to /run/imukit-test/i2c-bus for the walk.
set -eu
mkdir -p /run/imukit-test
modprobe i2c-stub chip_addr=0x69
modprobe i2c-dev
bus=""
for a in /sys/bus/i2c/devices/i2c-*; do
    [ "$(cat "$a/name")" = "SMBus stub driver" ] && bus=${a##*/i2c-}
done
[ -n "$bus" ] || { echo "chips: no i2c-stub adapter"; exit 1; }
echo "$bus" > /run/imukit-test/i2c-bus
# BMI160: chip id 0xD1; the power-on ACC_CONF/ACC_RANGE/GYR_CONF/GYR_RANGE (the stub does not
# emulate soft reset); standing still: accel 0, 0, 16384 (1 g at ±2 g, little endian at 0x12),
# gyro 0 (0x0C).
i2cset -y "$bus" 0x69 0x00 0xd1
i2cset -y "$bus" 0x69 0x40 0x28 0x03 0x28 0x00 i
i2cset -y "$bus" 0x69 0x12 0x00 0x00 0x00 0x00 0x00 0x40 i
i2cset -y "$bus" 0x69 0x0c 0x00 0x00 0x00 0x00 0x00 0x00 i
modprobe bmi160_i2c
if modprobe imukit_tick; then echo yes > /run/imukit-test/trigger; else echo "chips: no imukit_tick trigger: polled capture only"; fi
echo "bmi160 0x69" > "/sys/bus/i2c/devices/i2c-$bus/new_device"
udevadm settle
echo "chips: bmi160 on i2c-$bus: $(ls /sys/bus/iio/devices)"
