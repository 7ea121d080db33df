#!/bin/sh
# /init of the test-ring guest (busybox sh). Loads i2c-stub, preloads the chips' registers so
# the real drivers probe (presets: docs/testing-kernel.md), binds the drivers, starts iiod on
# port 30431 and a command shell on port 2323, then prints IMUKIT-READY on the console.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mkdir -p /dev/pts /tmp && mount -t tmpfs tmpfs /tmp

I2CSET=/usr/sbin/i2cset        # the i2c-tools one; busybox's applet lacks block mode
say() { echo "guest: $*"; }

# Up to 10 fake chips on adapter i2c-0. 0x18 (LIS3DH id) and 0x53 (ADXL345 id) stay unbound:
# the i2c-dev test finds them with our own imu-info inside the guest.
modprobe i2c-stub chip_addr=0x76,0x77,0x68,0x69,0x6a,0x6b,0x19,0x18,0x53
modprobe i2c-dev

# poke ADDR REG BYTE... : I2C block write of consecutive registers.
poke() { a=$1; r=$2; shift 2; $I2CSET -f -y 0 "$a" "$r" "$@" i; }

# BMP280 @0x76 / BME280 @0x77: chip id, datasheet §3.11.2 example calibration (little endian),
# adc_P=415148 adc_T=519888 (25.08 °C, 100.653 kPa).
for a in 0x76 0x77; do
    poke $a 0x88 0x70 0x6B 0x43 0x67 0x18 0xFC 0x7D 0x8E 0x43 0xD6 0xD0 0x0B \
                 0x27 0x0B 0x8C 0x00 0xF9 0xFF 0x8C 0x3C 0xF8 0xC6 0x70 0x17
    poke $a 0xF7 0x65 0x5A 0xC0 0x7E 0xED 0x00
done
$I2CSET -y 0 0x76 0xD0 0x58
$I2CSET -y 0 0x77 0xD0 0x60
# BME280 humidity calibration: H1=75 @0xA1; H2=362, H3=0, H4=313, H5=50, H6=30 @0xE1..0xE7.
$I2CSET -y 0 0x77 0xA1 0x4B
poke 0x77 0xE1 0x6A 0x01 0x00 0x13 0x29 0x03 0x1E
poke 0x77 0xFD 0x70 0x00

# MPU-6050 @0x68: WHO_AM_I; accel Z = 16384 = 1 g at ±2 g (big endian from 0x3B).
$I2CSET -y 0 0x68 0x75 0x68
poke 0x68 0x3F 0x40 0x00

# BMI160 @0x69: chip id; power-on defaults of ACC_CONF/ACC_RANGE/GYR_CONF/GYR_RANGE (the stub
# does not emulate soft reset); accel Z = 0x4000 little endian at 0x16.
$I2CSET -y 0 0x69 0x00 0xD1
poke 0x69 0x40 0x28 0x03 0x28 0x00
poke 0x69 0x16 0x00 0x40

# LSM6DS3 @0x6a, LSM6DSL @0x6b: WHO_AM_I; accel Z = 0x4000 little endian at 0x2C.
$I2CSET -y 0 0x6a 0x0F 0x69
$I2CSET -y 0 0x6b 0x0F 0x6A
poke 0x6a 0x2C 0x00 0x40
poke 0x6b 0x2C 0x00 0x40

# LIS3DH @0x19: st_sensors reads REG|0x80, so the readable registers live at the mirror.
$I2CSET -y 0 0x19 0x8F 0x33
poke 0x19 0xAC 0x00 0x40

# Unbound chips for the i2c-dev test: LIS3DH WHO_AM_I 0x33 (also at 0x8F for auto-increment
# reads), ADXL345 DEVID 0xE5 at 0x00 (datasheet register map).
$I2CSET -y 0 0x18 0x0F 0x33
$I2CSET -y 0 0x18 0x8F 0x33
$I2CSET -y 0 0x53 0x00 0xE5

modprobe bmp280-i2c
modprobe inv-mpu6050-i2c
modprobe bmi160_i2c
modprobe st_lsm6dsx_i2c
modprobe st_accel_i2c
modprobe imukit_tick 2>/dev/null && say "trigger imukit-tick loaded"
for dev in "bmp280 0x76" "bme280 0x77" "mpu6050 0x68" "bmi160 0x69" "lsm6ds3 0x6a" "lsm6dsl 0x6b" "lis3dh 0x19"; do
    echo "$dev" > /sys/bus/i2c/devices/i2c-0/new_device
done

modprobe e1000
ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2

for d in /sys/bus/iio/devices/iio:device*; do say "$(basename "$d") $(cat "$d/name")"; done
iiod > /tmp/iiod.log 2>&1 &
nc -ll -p 2323 -e /bin/sh &
# Ready only once both listen (state 0A = LISTEN in /proc/net/tcp*; 30431 = 0x76DF, 2323 = 0x0913):
# under TCG iiod can take seconds to start, and the host's first test must not race it.
listening() { grep -qi ":$1 [0-9A-F]*:0000 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null; }
n=0
until listening 76DF && listening 0913; do
    n=$((n + 1)); [ $n -gt 300 ] && { say "iiod or the shell did not start; see /tmp/iiod.log"; break; }
    usleep 100000
done
echo IMUKIT-READY
while true; do sleep 3600; done
