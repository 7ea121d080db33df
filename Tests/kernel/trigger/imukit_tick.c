// SPDX-License-Identifier: GPL-2.0
/*
 * imukit_tick: a periodic software IIO trigger for the IMUKit kernel test ring.
 *
 * Debian's stock kernel builds no software trigger (CONFIG_IIO_HRTIMER_TRIGGER and
 * CONFIG_IIO_SYSFS_TRIGGER are off) and i2c-stub chips have no interrupt line, so no
 * IIO buffer can run in the test VM without this. It registers one trigger named
 * "imukit-tick" and fires it from a hard-irq hrtimer while a buffer uses it.
 * The period is a module parameter in microseconds.
 */
#include <linux/hrtimer.h>
#include <linux/iio/iio.h>
#include <linux/iio/trigger.h>
#include <linux/module.h>

/* 10 000 us = 100 Hz, the project's default IMU rate. */
static unsigned int period_us = 10000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "trigger period in microseconds (default 10000 = 100 Hz)");

static struct iio_trigger *tick_trigger;
static struct hrtimer tick_timer;

static enum hrtimer_restart tick_fire(struct hrtimer *timer)
{
	hrtimer_forward_now(timer, ns_to_ktime((u64)period_us * NSEC_PER_USEC));
	iio_trigger_poll(tick_trigger);
	return HRTIMER_RESTART;
}

static int tick_set_state(struct iio_trigger *trig, bool on)
{
	if (on)
		hrtimer_start(&tick_timer, ns_to_ktime((u64)period_us * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_HARD);
	else
		hrtimer_cancel(&tick_timer);
	return 0;
}

static const struct iio_trigger_ops tick_ops = {
	.set_trigger_state = tick_set_state,
};

static int __init tick_init(void)
{
	int ret;

	if (period_us < 100)
		return -EINVAL;
	tick_trigger = iio_trigger_alloc(NULL, "imukit-tick");
	if (!tick_trigger)
		return -ENOMEM;
	tick_trigger->ops = &tick_ops;
	hrtimer_init(&tick_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	tick_timer.function = tick_fire;
	ret = iio_trigger_register(tick_trigger);
	if (ret)
		iio_trigger_free(tick_trigger);
	return ret;
}

static void __exit tick_exit(void)
{
	iio_trigger_unregister(tick_trigger);
	hrtimer_cancel(&tick_timer);
	iio_trigger_free(tick_trigger);
}

module_init(tick_init);
module_exit(tick_exit);
MODULE_DESCRIPTION("IMUKit test ring: periodic software IIO trigger");
MODULE_LICENSE("GPL");
