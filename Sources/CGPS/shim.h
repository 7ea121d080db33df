// Debian's libgps (package libgps-dev): the gpsd client library. Only what Swift cannot call itself.
#include <gps.h>
