// libmosquitto 2.0 (Debian libmosquitto-dev): the MQTT client library. Swift calls its C API
// directly; this header only imports it.
#include <mosquitto.h>
