#!/usr/bin/perl
# walk.pl BUS STEPS: a walk on the emulated BMI160's accel Z (high byte, register 0x17; ±2 g,
# 0x40 = 1 g): four levels of 0.14 s per step (1.8 steps/s: 1.0, 1.30, 1.0, 0.70 g), the pattern
# of the kernel ring's Walker (Tests/kernel/test_ring.py), paced on this machine's clock.
# One process writing through i2c-dev's SMBus ioctl (linux/i2c-dev.h, linux/i2c.h): no fork per
# level, which under TCG on a loaded host took longer than a level (perl-base is in every Debian).
use strict;
use warnings;
use Time::HiRes qw(time sleep);

my ($bus, $steps) = @ARGV;
my ($I2C_SLAVE_FORCE, $I2C_SMBUS, $SMBUS_WRITE, $SMBUS_BYTE_DATA) = (0x0706, 0x0720, 0, 2);
open(my $dev, '+<', "/dev/i2c-$bus") or die "walk: /dev/i2c-$bus: $!\n";
# The bmi160 driver owns 0x69: only a forced address may write beside it, as i2cset -f does.
ioctl($dev, $I2C_SLAVE_FORCE, 0x69) or die "walk: I2C_SLAVE_FORCE 0x69: $!\n";

sub level {
    my $data = pack('C', shift) . ("\0" x 33);    # union i2c_smbus_data: 34 bytes, .byte first
    # struct i2c_smbus_ioctl_data { u8 read_write; u8 command; u32 size; union i2c_smbus_data *data; }
    my $args = pack('C C x2 L p', $SMBUS_WRITE, 0x17, $SMBUS_BYTE_DATA, $data);
    ioctl($dev, $I2C_SMBUS, $args) or die "walk: SMBus write of register 0x17: $!\n";
}

my $due = time;
for (1 .. $steps) {
    for my $high (0x40, 0x53, 0x40, 0x2d) {
        my $wait = $due - time;
        sleep($wait) if $wait > 0;
        level($high);
        $due += 0.14;
    }
}
level(0x40);
