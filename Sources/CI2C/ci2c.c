#include "ci2c.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>

int ci2c_open(const char *path) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int ci2c_close(int fd) { return close(fd) < 0 ? -errno : 0; }

int ci2c_set_address(int fd, uint16_t address) {
    return ioctl(fd, I2C_SLAVE, (unsigned long)address) < 0 ? -errno : 0;
}

int ci2c_functionality(int fd, unsigned long *funcs) {
    return ioctl(fd, I2C_FUNCS, funcs) < 0 ? -errno : 0;
}

int ci2c_write_read(int fd, uint16_t address, const uint8_t *wbuf, uint16_t wlen, uint8_t *rbuf, uint16_t rlen) {
    struct i2c_msg msgs[2];
    int n = 0;
    if (wlen > 0) {
        msgs[n].addr = address; msgs[n].flags = 0; msgs[n].len = wlen; msgs[n].buf = (uint8_t *)wbuf; n++;
    }
    if (rlen > 0) {
        msgs[n].addr = address; msgs[n].flags = I2C_M_RD; msgs[n].len = rlen; msgs[n].buf = rbuf; n++;
    }
    if (n == 0) return 0;
    struct i2c_rdwr_ioctl_data data = { .msgs = msgs, .nmsgs = (uint32_t)n };
    return ioctl(fd, I2C_RDWR, &data) < 0 ? -errno : 0;
}

int ci2c_smbus_read_byte(int fd, uint8_t reg) {
    int r = i2c_smbus_read_byte_data(fd, reg);
    return r < 0 ? -errno : r;
}

int ci2c_smbus_write_byte(int fd, uint8_t reg, uint8_t value) {
    return i2c_smbus_write_byte_data(fd, reg, value) < 0 ? -errno : 0;
}

int ci2c_smbus_read_block(int fd, uint8_t reg, uint8_t length, uint8_t *out) {
    if (length > I2C_SMBUS_BLOCK_MAX) length = I2C_SMBUS_BLOCK_MAX;  /* linux/i2c.h */
    int r = i2c_smbus_read_i2c_block_data(fd, reg, length, out);
    return r < 0 ? -errno : r;
}
