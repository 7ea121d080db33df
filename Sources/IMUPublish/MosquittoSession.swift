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
            let rc = settings.caFile.map { mosquitto_tls_set(handle, $0, nil, nil, nil, nil) }
                ?? mosquitto_tls_set(handle, nil, "/etc/ssl/certs", nil, nil, nil)
            try check(rc, "loading the CA file \(settings.caFile ?? "/etc/ssl/certs")")
            // 1 = SSL_VERIFY_PEER: the certificate must chain to the CA; host-name checking stays on
            // (mosquitto_tls_insecure_set is never called with true).
            try check(mosquitto_tls_opts_set(handle, 1, nil, nil), "requiring a verified certificate")
        }
    }

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
        // retry; and it tries a host's addresses in turn, so a name whose IPv6 address never
        // answers held it that long even when its IPv4 address answered. Connections of our own
        // first, to every address at once within ConnectOutcome.timeout in all, find the one that
        // answers (or name the host and each address when none does), and libmosquitto goes there
        // alone: to its digits for plain MQTT; with TLS, whose certificate check needs the name,
        // by the name with its socket bound to the answering address's family (libmosquitto skips
        // an address its bind fails on). Refusals and unknown names are left to mosquitto_connect,
        // which reports them at once.
        var host = broker.host, port = broker.port, bindAddress: String?
        if case let .success(addresses) = resolve(broker.host, String(broker.port)) {
            let reached = ConnectOutcome.reach(addresses, host: broker.host)
            if let answered = reached.answered {
                if broker.usesTLS { bindAddress = answered.familyWildcard } else { (host, port) = (answered.text, answered.port) }
            } else if reached.timedOut, let failure = reached.failure {
                return .failed(MOSQ_ERR_TIMEOUT.rawValue, failure)
            }
        }
        let rc = mosquitto_connect_bind(handle, host, Int32(port), keepAliveSeconds, bindAddress)
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
