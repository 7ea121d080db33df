// libmosquitto 2.0 (Debian libmosquitto-dev): the MQTT client library. Swift calls its C API
// directly. OpenSSL (Debian libssl-dev to build: libmosquitto-dev does not pull it in; libssl3,
// which libmosquitto1 needs anyway, to run) for the one TLS context
// MosquittoSession hands libmosquitto (MOSQ_OPT_SSL_CTX): see imukit_tls_context.
#include <mosquitto.h>
#include <arpa/inet.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// At the start of each handshake, the server name (SNI) becomes the name the certificate is
/// checked against (the context's verify host), not the address libmosquitto connected to:
/// libmosquitto sets SNI to the host it was given, which is the address's digits.
static void imukit_tls_name_as_sni(const SSL *ssl, int where, int ret) {
    (void)ret;
    if (!(where & SSL_CB_HANDSHAKE_START)) return;
    const char *name = X509_VERIFY_PARAM_get0_host(SSL_get0_param((SSL *)ssl), 0);
    if (name) SSL_set_tlsext_host_name((SSL *)ssl, name);
}

/// A client TLS context that trusts `cafile` (or the certificates in `capath`), requires a
/// certificate that chains to them, and checks it against `name`: a host name (DNS names of the
/// certificate, wildcards as RFC 6125) or, for an address, its IP entries. The name is sent as
/// SNI (RFC 6066: never an address). NULL when OpenSSL cannot make it or load the CA.
static inline SSL_CTX *imukit_tls_context(const char *cafile, const char *capath, const char *name) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) return NULL;
    X509_VERIFY_PARAM *param = SSL_CTX_get0_param(ctx);
    unsigned char address[16];
    int numeric = inet_pton(AF_INET, name, address) == 1 || inet_pton(AF_INET6, name, address) == 1;
    int named = numeric ? X509_VERIFY_PARAM_set1_ip_asc(param, name) : X509_VERIFY_PARAM_set1_host(param, name, 0);
    if (SSL_CTX_load_verify_locations(ctx, cafile, capath) != 1 || named != 1) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    if (!numeric) SSL_CTX_set_info_callback(ctx, imukit_tls_name_as_sni);
    return ctx;
}
