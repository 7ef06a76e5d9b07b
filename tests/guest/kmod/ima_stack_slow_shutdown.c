// SPDX-License-Identifier: GPL-2.0
/*
 * ima_stack_slow_shutdown - a platform device whose shutdown takes a set
 * time, for the guest's kexec tests.
 *
 * kernel_kexec() calls the reboot notifiers (where IMA hands its
 * measurement list to the next kernel), then device_shutdown(), which stops
 * the devices newest first, and only then the CPUs. User space runs on
 * until then. On a real machine that window lasts as long as its devices
 * take to stop (a disk flushing its cache, a controller waiting for its
 * firmware); in a QEMU guest it is a few milliseconds. This device, added
 * when the module loads (so after the TPM, and stopped before it), makes it
 * shutdown_ms long, so that what a process does in the window, and what
 * the kernel does then, can be seen before the jump.
 */
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#define DRV_NAME "ima_stack_slow_shutdown"

static unsigned int shutdown_ms = 1000;
module_param(shutdown_ms, uint, 0444);
MODULE_PARM_DESC(shutdown_ms, "how long the device's shutdown takes, in milliseconds (at most 60000)");

static struct platform_device *slow_pdev;

static int slow_probe(struct platform_device *pdev)
{
	return 0;
}

static void slow_shutdown(struct platform_device *pdev)
{
	dev_info(&pdev->dev, "shutdown: waiting %u ms\n", shutdown_ms);
	msleep(shutdown_ms);
	dev_info(&pdev->dev, "shutdown: done\n");
}

static struct platform_driver slow_driver = {
	.driver = {
		.name = DRV_NAME,
	},
	.probe = slow_probe,
	.shutdown = slow_shutdown,
};

static int __init slow_init(void)
{
	int ret;

	if (shutdown_ms > 60000)
		return -EINVAL;
	ret = platform_driver_register(&slow_driver);
	if (ret)
		return ret;
	slow_pdev = platform_device_register_simple(DRV_NAME, PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(slow_pdev)) {
		platform_driver_unregister(&slow_driver);
		return PTR_ERR(slow_pdev);
	}
	return 0;
}

static void __exit slow_exit(void)
{
	platform_device_unregister(slow_pdev);
	platform_driver_unregister(&slow_driver);
}

module_init(slow_init);
module_exit(slow_exit);
MODULE_DESCRIPTION("A platform device whose shutdown takes shutdown_ms milliseconds");
MODULE_LICENSE("GPL");
