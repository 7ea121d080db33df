// libiio 0.24 (Debian libiio-dev). Swift calls its C API directly; this header only imports it.
#include <iio.h>
