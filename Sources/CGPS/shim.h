// Debian's libgps (package libgps-dev): the gpsd client library. Only what Swift cannot call itself.
#include <gps.h>

// The report-field masks are 64-bit shift macros; named constants import cleanly.
static const gps_mask_t cgps_speed_set = SPEED_SET;
static const gps_mask_t cgps_mode_set = MODE_SET;
