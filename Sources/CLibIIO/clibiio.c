// Trampolines into libiio.so.0, loaded on first use (include/CLibIIO.h says why). Each function
// below has the signature <iio.h> declares (the compiler checks it against the header) and calls
// the function of the same name in the loaded libiio.
//
// The trampolines are hidden: they serve this executable's own calls and are not exported, so
// libiio's internal calls to its own functions never bind to them. <iio.h> marks its declarations
// visibility("default") unless MATLAB_LOADLIBRARY is defined (a switch libiio has for loaders of
// exactly this kind), which lets the pragma below apply.
#define MATLAB_LOADLIBRARY 1
#pragma GCC visibility push(hidden)
#include "CLibIIO.h"
#pragma GCC visibility pop

#include "COnDemand.h"
#include <errno.h>

/// libiio's run-time name (Debian libiio0, libiio 0.x ABI).
#define CLIBIIO_SONAME "libiio.so.0"

// Every libiio function IMUKit calls, as X(name, return type, parameters, arguments), in three
// lists because their trampolines differ: the one that creates a context (it loads libiio), those
// that return a value, those that return nothing.
#define CLIBIIO_CREATE(X) \
    X(iio_create_context_from_uri, struct iio_context *, (const char *uri), (uri))

#define CLIBIIO_VALUED(X) \
    X(iio_context_set_timeout, int, (struct iio_context *ctx, unsigned int ms), (ctx, ms)) \
    X(iio_context_get_devices_count, unsigned int, (const struct iio_context *ctx), (ctx)) \
    X(iio_context_get_device, struct iio_device *, (const struct iio_context *ctx, unsigned int i), (ctx, i)) \
    X(iio_context_find_device, struct iio_device *, (const struct iio_context *ctx, const char *name), (ctx, name)) \
    X(iio_device_get_id, const char *, (const struct iio_device *dev), (dev)) \
    X(iio_device_get_name, const char *, (const struct iio_device *dev), (dev)) \
    X(iio_device_get_attrs_count, unsigned int, (const struct iio_device *dev), (dev)) \
    X(iio_device_get_attr, const char *, (const struct iio_device *dev, unsigned int i), (dev, i)) \
    X(iio_device_find_attr, const char *, (const struct iio_device *dev, const char *name), (dev, name)) \
    X(iio_device_attr_read, ssize_t, (const struct iio_device *dev, const char *attr, char *dst, size_t len), (dev, attr, dst, len)) \
    X(iio_device_attr_write, ssize_t, (const struct iio_device *dev, const char *attr, const char *src), (dev, attr, src)) \
    X(iio_device_get_channels_count, unsigned int, (const struct iio_device *dev), (dev)) \
    X(iio_device_get_channel, struct iio_channel *, (const struct iio_device *dev, unsigned int i), (dev, i)) \
    X(iio_device_find_channel, struct iio_channel *, (const struct iio_device *dev, const char *name, bool output), (dev, name, output)) \
    X(iio_device_is_trigger, bool, (const struct iio_device *dev), (dev)) \
    X(iio_device_get_trigger, int, (const struct iio_device *dev, const struct iio_device **trigger), (dev, trigger)) \
    X(iio_device_set_trigger, int, (const struct iio_device *dev, const struct iio_device *trigger), (dev, trigger)) \
    X(iio_device_get_sample_size, ssize_t, (const struct iio_device *dev), (dev)) \
    X(iio_device_create_buffer, struct iio_buffer *, (const struct iio_device *dev, size_t count, bool cyclic), (dev, count, cyclic)) \
    X(iio_channel_get_id, const char *, (const struct iio_channel *chn), (chn)) \
    X(iio_channel_get_index, long, (const struct iio_channel *chn), (chn)) \
    X(iio_channel_is_output, bool, (const struct iio_channel *chn), (chn)) \
    X(iio_channel_is_scan_element, bool, (const struct iio_channel *chn), (chn)) \
    X(iio_channel_get_data_format, const struct iio_data_format *, (const struct iio_channel *chn), (chn)) \
    X(iio_channel_get_attrs_count, unsigned int, (const struct iio_channel *chn), (chn)) \
    X(iio_channel_get_attr, const char *, (const struct iio_channel *chn, unsigned int i), (chn, i)) \
    X(iio_channel_find_attr, const char *, (const struct iio_channel *chn, const char *name), (chn, name)) \
    X(iio_channel_attr_read, ssize_t, (const struct iio_channel *chn, const char *attr, char *dst, size_t len), (chn, attr, dst, len)) \
    X(iio_channel_attr_write, ssize_t, (const struct iio_channel *chn, const char *attr, const char *src), (chn, attr, src)) \
    X(iio_device_buffer_attr_read_longlong, int, (const struct iio_device *dev, const char *attr, long long *val), (dev, attr, val)) \
    X(iio_buffer_refill, ssize_t, (struct iio_buffer *buf), (buf)) \
    X(iio_buffer_start, void *, (const struct iio_buffer *buf), (buf))

#define CLIBIIO_VOID(X) \
    X(iio_context_destroy, void, (struct iio_context *ctx), (ctx)) \
    X(iio_channel_enable, void, (struct iio_channel *chn), (chn)) \
    X(iio_channel_disable, void, (struct iio_channel *chn), (chn)) \
    X(iio_buffer_destroy, void, (struct iio_buffer *buf), (buf))

#define CLIBIIO_FUNCTIONS(X) CLIBIIO_CREATE(X) CLIBIIO_VALUED(X) CLIBIIO_VOID(X)

// One pointer per function, typed from the header's own declaration; set on first use by ondemand_load.
CLIBIIO_FUNCTIONS(ONDEMAND_POINTER)

static struct ondemand_library library = ONDEMAND_LIBRARY(CLIBIIO_SONAME, CLIBIIO_FUNCTIONS);

const char *clibiio_load(void) { return ondemand_load(&library); }

// Every function but the first is reached only through a context, so libiio is loaded by then.
// Creating a context loads it too; when it cannot be loaded, that fails as libiio does (NULL and
// errno), with ELIBACC ("cannot access a needed shared library").
struct iio_context *iio_create_context_from_uri(const char *uri) {
    if (clibiio_load()) { errno = ELIBACC; return NULL; }
    return p_iio_create_context_from_uri(uri);
}

#define CLIBIIO_TRAMPOLINE(name, ret, params, args) ret name params { return p_##name args; }
CLIBIIO_VALUED(CLIBIIO_TRAMPOLINE)
#define CLIBIIO_VOID_TRAMPOLINE(name, ret, params, args) void name params { p_##name args; }
CLIBIIO_VOID(CLIBIIO_VOID_TRAMPOLINE)
