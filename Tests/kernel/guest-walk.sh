#!/bin/sh
# imukit-walk STEPS COUNTS_PER_STEP [MOVE] — runs inside the test-ring guest.
# For each step it writes one cycle of a walking pattern into the MPU-6050's accel Z (high byte of
# register 0x3F; 0x40 = 16384 counts = 1 g at ±2 g) and then moves the BMP280 pressure ADC
# (0xF7..0xF9, 20 bits) by COUNTS_PER_STEP (+70 counts ≈ −12 Pa ≈ +1 m). MOVE=0 keeps the
# accelerometer still at 1 g (an elevator) with the same timing. The ADC value carries over between
# calls in /tmp/adc_p.
# Pacing: each level is due at start + k × 7 centiseconds on the guest's /proc/uptime clock (read
# by the shell itself, no fork), so a slow i2cset (about 40 ms under TCG, far more when the host is
# busy) delays one level, not the rhythm: 4 levels × 0.14 s = 0.56 s per step, 1.8 steps/s. Four
# levels, not more, keep the guest's write load low enough to hold that rhythm on a loaded host.
steps=$1; per_step=$2; move=${3:-1}
I2CSET=/usr/sbin/i2cset
LEVEL_CS=14
adc=$(cat /tmp/adc_p 2>/dev/null || echo 415148)
# One step: 1.0, 1.30, 1.0, 0.70 g (high bytes of the 16-bit counts: 0x40 = 1 g, 0x53 = 1.30 g, 0x2D = 0.70 g).
levels="0x40 0x53 0x40 0x2D"
centiseconds() { read -r up _ < /proc/uptime; echo "${up%.*}${up#*.}"; }
due=$(centiseconds)
i=0
while [ "$i" -lt "$steps" ]; do
    for v in $levels; do
        while [ "$(centiseconds)" -lt "$due" ]; do usleep 5000; done
        [ "$move" = 1 ] && $I2CSET -f -y 0 0x68 0x3F "$v"
        due=$((due + LEVEL_CS))
    done
    adc=$((adc + per_step))
    $I2CSET -f -y 0 0x76 0xF7 $((adc >> 12)) $(((adc >> 4) & 255)) $(((adc & 15) << 4)) i
    i=$((i + 1))
done
$I2CSET -f -y 0 0x68 0x3F 0x40
echo "$adc" > /tmp/adc_p
echo "walked $steps steps, adc_P now $adc"
