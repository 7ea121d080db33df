// Thin C layer over Linux i2c-dev (linux/i2c-dev.h, linux/i2c.h) and libi2c's SMBus calls
// (Debian libi2c-dev, <i2c/smbus.h>). Only what Swift cannot call itself: ioctls with
// variadic arguments and kernel structs. No logic. Every function returns 0 (or a byte count)
// on success and -errno on failure, so Swift never reads a stale errno.
#ifndef CI2C_H
#define CI2C_H
#include <stdint.h>
#include <stddef.h>

#include <linux/i2c.h>

/// I2C_FUNCS bits this project uses, taken from the kernel header (linux/i2c.h), never copied.
#define CI2C_FUNC_I2C I2C_FUNC_I2C
#define CI2C_FUNC_SMBUS_READ_BYTE_DATA I2C_FUNC_SMBUS_READ_BYTE_DATA
#define CI2C_FUNC_SMBUS_WRITE_BYTE_DATA I2C_FUNC_SMBUS_WRITE_BYTE_DATA
#define CI2C_FUNC_SMBUS_READ_I2C_BLOCK I2C_FUNC_SMBUS_READ_I2C_BLOCK

/// Opens /dev/i2c-N read-write with O_CLOEXEC. Returns fd or -errno.
int ci2c_open(const char *path);
/// close(2). Returns 0 or -errno.
int ci2c_close(int fd);
/// ioctl(I2C_SLAVE, addr): never I2C_SLAVE_FORCE. -EBUSY means a kernel driver owns the address.
int ci2c_set_address(int fd, uint16_t address);
/// ioctl(I2C_FUNCS). Stores the adapter's functionality bits.
int ci2c_functionality(int fd, unsigned long *funcs);
/// One combined transfer (ioctl I2C_RDWR): write `wlen` bytes, repeated start, read `rlen` bytes.
/// `rlen` may be 0 for a plain write. Returns 0 or -errno.
int ci2c_write_read(int fd, uint16_t address, const uint8_t *wbuf, uint16_t wlen, uint8_t *rbuf, uint16_t rlen);
/// SMBus read byte data (libi2c). Returns the byte (0...255) or -errno.
int ci2c_smbus_read_byte(int fd, uint8_t reg);
/// SMBus write byte data (libi2c). Returns 0 or -errno.
int ci2c_smbus_write_byte(int fd, uint8_t reg, uint8_t value);
/// SMBus I2C-block read of up to 32 bytes (libi2c). Returns the byte count or -errno.
int ci2c_smbus_read_block(int fd, uint8_t reg, uint8_t length, uint8_t *out);

#endif
