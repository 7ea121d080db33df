import IMUCore
import CMosquitto
import Foundation

/// libmosquitto's process-wide set-up, done once.
enum MosquittoLibrary {
    static let initialised: Int32 = mosquitto_lib_init()

    /// libmosquitto's text for `code` (errno's for MOSQ_ERR_ERRNO), without its final full stop.
    static func describe(_ code: Int32) -> String {
        let text = code == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(code))
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}

/// One libmosquitto client, driven by one thread: the publisher's own (never the cooperative
/// pool, since connecting and `select` block). Not Sendable: it never leaves that thread.
/// libmosquitto calls the callbacks below from inside `mosquitto_loop`, on the same thread.
final class MosquittoSession {
    enum Outcome: Equatable {
        case connected
        /// The broker answered CONNACK with a refusal (MQTT 3.1.1 codes: 4 bad user name or
        /// password, 5 not authorised).
        case refused(Int32)
        case failed(Int32, String)
        /// The broker's name found no address within the deadline (`ConnectOutcome.resolve`):
        /// why, naming the host, the deadline and the fix.
        case unresolved(String)
    }

    private let handle: OpaquePointer
    /// The last CONNACK seen, and the last error line libmosquitto (OpenSSL) logged.
    fileprivate var connack: Int32?
    fileprivate var lastErrorLog: String?

    init(clientID: String, settings: MQTTSettings, credentials: MQTTCredentials?) throws(PublishError) {
        _ = MosquittoLibrary.initialised
        guard let handle = mosquitto_new(clientID, true, nil) else { throw .library("mosquitto_new", code: MOSQ_ERR_NOMEM.rawValue) }
        self.handle = handle
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_callback_set(handle) { _, context, code in
            guard let context else { return }
            Unmanaged<MosquittoSession>.fromOpaque(context).takeUnretainedValue().connack = code
        }
        mosquitto_log_callback_set(handle) { _, context, level, message in
            guard let context, let message, level & MOSQ_LOG_ERR != 0 else { return }
            Unmanaged<MosquittoSession>.fromOpaque(context).takeUnretainedValue().lastErrorLog = String(cString: message)
        }
        try check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311), "setting MQTT 3.1.1")
        let offline = "offline"
        try check(mosquitto_will_set(handle, settings.availabilityTopic, Int32(offline.utf8.count), offline, 1, true),
                  "setting the last will")
        if let credentials { try setCredentials(credentials) }
        if settings.broker.usesTLS {
            // Without a CA file, the system's CA directory (Debian: ca-certificates).
            let caPath = settings.caFile == nil ? Self.systemCADirectory : nil
            let ca = settings.caFile ?? Self.systemCADirectory
            try check(mosquitto_tls_set(handle, settings.caFile, caPath, nil, nil, nil), "loading the CA file \(ca)")
            // 1 = SSL_VERIFY_PEER: the certificate must chain to the CA.
            try check(mosquitto_tls_opts_set(handle, 1, nil, nil), "requiring a verified certificate")
            try useOwnTLSContext(caFile: settings.caFile, caPath: caPath, named: ca, host: settings.broker.host)
        }
    }

    /// The TLS context libmosquitto uses (MOSQ_OPT_SSL_CTX, without its defaults): the same CA
    /// and SSL_VERIFY_PEER, the certificate checked against the broker's name by OpenSSL, and that
    /// name sent as SNI (`imukit_tls_context`, Sources/CMosquitto/shim.h). libmosquitto checks the
    /// certificate, and sets SNI, against the host it connects to; `connect` hands it the digits
    /// of the address that answered, so its own check would compare the certificate with the
    /// digits. libmosquitto takes a reference of its own (SSL_CTX_up_ref): ours is freed here.
    /// `caFile` or `caPath` as `mosquitto_tls_set` got them; `ca` names the one in messages.
    private func useOwnTLSContext(caFile: String?, caPath: String?, named ca: String, host: String) throws(PublishError) {
        guard let context = imukit_tls_context(caFile, caPath, host) else {
            throw .library("loading the CA file \(ca) into a TLS context for \(host)", code: MOSQ_ERR_TLS.rawValue)
        }
        defer { SSL_CTX_free(context) }
        try check(mosquitto_int_option(handle, MOSQ_OPT_SSL_CTX_WITH_DEFAULTS, 0), "using a TLS context of our own")
        try check(mosquitto_void_option(handle, MOSQ_OPT_SSL_CTX, UnsafeMutableRawPointer(context)), "using a TLS context of our own")
    }

    /// The system's CA directory (Debian: ca-certificates), used when no CA file is set.
    static let systemCADirectory = "/etc/ssl/certs"

    deinit { mosquitto_destroy(handle) }

    /// The user name and password of the next connection.
    func setCredentials(_ credentials: MQTTCredentials) throws(PublishError) {
        try check(mosquitto_username_pw_set(handle, credentials.username, credentials.password), "setting the user name")
    }

    private func check(_ code: Int32, _ what: String) throws(PublishError) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw .library(what, code: code) }
    }

    /// Connects (blocking, TLS handshake included) and waits up to `timeout` for the CONNACK.
    /// `resolve` gives the broker's addresses (getaddrinfo; tests inject their own).
    func connect(to broker: BrokerAddress, keepAliveSeconds: Int32, timeout: Double,
                 resolve: (String, String) -> Result<[ResolvedAddress], ResolveFailure> = ConnectOutcome.resolve) -> Outcome {
        connack = nil
        lastErrorLog = nil
        // mosquitto_connect connects blocking: about 2 minutes (the kernel's SYN retries) for an
        // address that never answers, with no line in the log meanwhile, and as long again at each
        // retry; and it tries a host's addresses in turn, so a name whose first address never
        // answers held it that long even when another answered. Connections of our own first, to
        // every address at once within ConnectOutcome.timeout in all, find the one that answers
        // (or name the host and each address when none does), and libmosquitto goes to its digits
        // alone, for mqtts:// too: the certificate is checked against the name, and the name sent
        // as SNI, by the TLS context (`useOwnTLSContext`). (mqtts:// went by the name with the
        // socket bound to the answering address's family: libmosquitto resolved it again, and a
        // first address of the same family that never answered, two IPv4 addresses say, still
        // held it for minutes.) Refusals and unknown names are left to mosquitto_connect, which
        // reports them at once. The lookup has the connection's deadline (`ConnectOutcome.resolve`):
        // a DNS server that never answers held it for resolv.conf's timeouts, 30 s by default.
        var host = broker.host, port = broker.port
        switch resolve(broker.host, String(broker.port)) {
        case let .success(addresses):
            let reached = ConnectOutcome.reach(addresses, host: broker.host)
            if let answered = reached.answered {
                (host, port) = (answered.text, answered.port)
            } else if reached.timedOut, let failure = reached.failure {
                return .failed(MOSQ_ERR_TIMEOUT.rawValue, failure)
            }
        case let .failure(failure) where failure.timedOut:
            // mosquitto_connect would look the name up again, with no deadline.
            return .unresolved(failure.reason)
        case .failure:
            break
        }
        let rc = mosquitto_connect(handle, host, Int32(port), keepAliveSeconds)
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { return .failed(rc, reason(rc)) }
        // libmosquitto makes its socket without SOCK_CLOEXEC (seen with strace on Debian 12's
        // libmosquitto1): set it at once, so a child spawned from now on does not hold the
        // connection to the broker. Its wake-up socket pair is out of reach of its API.
        _ = fcntl(mosquitto_socket(handle), F_SETFD, FD_CLOEXEC)
        let deadline = Date().addingTimeInterval(timeout)
        while connack == nil, Date() < deadline {
            let loop = mosquitto_loop(handle, 200, 1)
            // A refusing CONNACK makes the loop return MOSQ_ERR_CONN_REFUSED after the callback.
            if loop == MOSQ_ERR_CONN_REFUSED.rawValue { return .refused(connack ?? 5) }
            if loop != MOSQ_ERR_SUCCESS.rawValue { return .failed(loop, reason(loop)) }
        }
        guard let connack else { return .failed(MOSQ_ERR_TIMEOUT.rawValue, "no answer to CONNECT within \(Int(timeout)) s") }
        if connack != 0 {
            mosquitto_disconnect(handle)
            return .refused(connack)
        }
        return .connected
    }

    /// Runs the network loop for up to `milliseconds`; false when the connection is lost.
    func service(milliseconds: Int32) -> (alive: Bool, reason: String) {
        let rc = mosquitto_loop(handle, milliseconds, 1)
        return (rc == MOSQ_ERR_SUCCESS.rawValue, rc == MOSQ_ERR_SUCCESS.rawValue ? "" : reason(rc))
    }

    /// Queues a retained QoS 1 message; false when libmosquitto refuses it.
    @discardableResult
    func publish(_ topic: String, _ payload: String) -> Bool {
        let bytes = Array(payload.utf8)
        return mosquitto_publish(handle, nil, topic, Int32(bytes.count), bytes, 1, true) == MOSQ_ERR_SUCCESS.rawValue
    }

    /// Sends DISCONNECT (the broker then does not publish the will) after flushing what is queued.
    func disconnect(flushFor milliseconds: Int32) {
        for _ in 0..<max(1, milliseconds / 50) { _ = mosquitto_loop(handle, 50, 1) }
        mosquitto_disconnect(handle)
        _ = mosquitto_loop(handle, 50, 1)
    }

    private func reason(_ code: Int32) -> String {
        let base = MosquittoLibrary.describe(code)
        if let log = lastErrorLog, code == MOSQ_ERR_TLS.rawValue || code == MOSQ_ERR_TLS_HANDSHAKE.rawValue {
            return "\(base) (\(log.escapedForTerminal))"
        }
        return base
    }
}
