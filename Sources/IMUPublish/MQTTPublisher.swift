import IMUCore
import Foundation
import Synchronization

/// What the publisher has done so far, for D-Bus, logs and tests.
public struct PublisherStatus: Sendable, Equatable {
    public var connected = false
    /// Successful connections (the first one and every reconnection).
    public var connections = 0
    /// State messages sent.
    public var statesPublished = 0
    /// Problems written to the log: one per outage (or per change of what is wrong).
    public var problemsLogged = 0
    /// The current problem, nil while connected.
    public var problem: String?
}

/// Publishes a device's state to an MQTT broker with Home Assistant discovery, from a thread of
/// its own, and keeps doing so while the broker comes and goes.
///
/// - `update` may be called at any rate from any thread; the state is sent (retained, QoS 1) when
///   it changed, at most once a second.
/// - On every (re)connection: the discovery configs, `online` on the availability topic, and the
///   current state. The last will sets `offline` when the device vanishes; `stop` sets it itself.
/// - A lost or refused connection is retried after `reconnectDelay.lowerBound` s, doubling up to
///   `upperBound`. Each outage is logged once, with its fix; a new kind of problem is logged again.
public final class MQTTPublisher: Sendable {
    public let settings: MQTTSettings
    private let shared: Mutex<Shared>

    private struct Shared {
        var latest: PublishedState?
        var stopping = false
        var finished = false
        var status = PublisherStatus()
    }

    /// Reads and checks the credentials file and the CA file now, so that a bad file stops the
    /// service at start with its fix; then starts the publishing thread.
    public init(settings: MQTTSettings, softwareVersion: String, log: @escaping @Sendable (String) -> Void) throws(PublishError) {
        self.settings = settings
        shared = Mutex(Shared())
        let credentials = try settings.credentialsPath.map { path throws(PublishError) in try MQTTCredentials.load(path: path, owner: settings.credentialsOwner) }
        if let ca = settings.caFile, let problem = MQTTCAFile.problem(ca) {
            throw .invalidSetting("mqtt_ca_file", problem.message, fix: MQTTCAFile.fix)
        }
        let discovery = HomeAssistantDiscovery.messages(for: settings, softwareVersion: softwareVersion)
        // The session and the loop are made on the thread that uses them and never leave it.
        do {
            try OwnThread.start(name: "imukit-mqtt") { [self] in
                do {
                    let session = try MosquittoSession(clientID: "imukit-\(settings.deviceID)", settings: settings, credentials: credentials)
                    Worker(settings: settings, session: session, credentials: credentials, discovery: discovery, log: log,
                           publisher: self).run()
                } catch {
                    turnOff(error, log: log)
                }
            }
        } catch {
            turnOff(error, log: log)
        }
    }

    /// Publishing cannot start (no session, no thread): said once in the log and in the status;
    /// the service goes on counting without it.
    private func turnOff(_ error: any Error, log: @Sendable (String) -> Void) {
        log("MQTT: \(error); publishing is off")
        record { $0.problem = "\(error)"; $0.problemsLogged += 1 }
        markFinished()
    }

    /// The newest state; sent when it differs from the last one sent, at most once a second.
    public func update(_ state: PublishedState) {
        shared.withLock { $0.latest = state }
    }

    public var status: PublisherStatus { shared.withLock { $0.status } }

    /// Publishes `offline`, disconnects and ends the thread (waits up to `timeout` s for it).
    public func stop(timeout: Double = 3) {
        shared.withLock { $0.stopping = true }
        let deadline = Date().addingTimeInterval(timeout)
        while !shared.withLock({ $0.finished }), Date() < deadline { usleep(20_000) }
    }

    fileprivate func take() -> (state: PublishedState?, stopping: Bool) {
        shared.withLock { ($0.latest, $0.stopping) }
    }

    fileprivate func record(_ change: (inout PublisherStatus) -> Void) {
        shared.withLock { change(&$0.status) }
    }

    fileprivate func markFinished() { shared.withLock { $0.finished = true } }
}

extension MQTTPublisher {
    /// Whether a failed TLS connection's reason (libmosquitto's text with OpenSSL's last error
    /// line, `MosquittoSession.reason`) is about a certificate: one the CA file does not verify,
    /// a host name it does not name, or a CA file OpenSSL cannot load. mqtts:// to a plain MQTT
    /// port ("unexpected eof while reading", "wrong version number") was logged as "the broker's
    /// certificate was rejected", with the fix to set mqtt_ca_file.
    static func isCertificateProblem(_ reason: String) -> Bool {
        ["certificate verify failed", "PEM lib", "CA certificates"].contains { reason.contains($0) }
    }

    /// The line for a CONNACK that refuses the connection, by its MQTT 3.1.1 return code
    /// (section 3.2.2.3): only 4 and 5 concern the user name and password; every refusal was
    /// blamed on them, so a broker that rejects the client id (2: brokers need accept only 1 to 23
    /// characters, and imukit-ID is up to 71) said to mend the credentials file.
    static func refusal(_ code: Int32, settings: MQTTSettings) -> String {
        let broker = "the broker \(settings.broker)"
        switch code {
        case 4, 5:
            let who = settings.credentialsPath.map { "the user name and password in \($0)" } ?? "an anonymous connection"
            let fix = settings.credentialsPath.map { "fix \($0) (username=, password=) to match the broker's password file" }
                ?? "set mqtt_credentials to a file with the broker's username= and password="
            return "\(broker) refused \(who) (\(code == 4 ? "bad user name or password" : "not authorised")); fix: \(fix)"
        case 1:
            return "\(broker) refused MQTT 3.1.1, the protocol this client speaks (unacceptable protocol version); "
                + "fix: let the broker accept MQTT 3.1.1 (Mosquitto, EMQX and HiveMQ do by default)"
        case 2:
            let id = "imukit-\(settings.deviceID)"
            return "\(broker) rejected the client id \(id) (\(id.utf8.count) characters; MQTT 3.1.1 brokers need accept only 1 to 23); "
                + "fix: set mqtt_device_id to at most 16 characters, or let the broker accept longer client ids"
        case 3:
            return "\(broker) is up but takes no clients now (server unavailable); fix: see why in the broker's log (journalctl -u mosquitto)"
        default:
            return "\(broker) refused the connection with code \(code), which MQTT 3.1.1 does not define; "
                + "fix: see why in the broker's log, and check that mqtt_broker names an MQTT 3.1.1 broker"
        }
    }
}

/// The publishing thread's loop. Everything in it runs on that one thread.
private final class Worker {
    let settings: MQTTSettings
    let discovery: [(topic: String, payload: String)]
    let log: @Sendable (String) -> Void
    /// Kept alive by this loop until `stop` ends it.
    let publisher: MQTTPublisher
    let session: MosquittoSession
    /// The user name and password the session holds: read at start, and again before each later
    /// attempt (`refreshCredentials`).
    private var credentials: MQTTCredentials?
    private var attempts = 0
    /// What was wrong with the credentials file at the last reading, to log each problem once.
    private var credentialsProblem: String?

    private var connected = false
    private var failures = 0
    private var nextAttempt = Date.distantPast
    private var lastProblemKind: String?
    private var outageStart: Date?
    private var lastSent: PublishedState?
    private var lastSentTime = Date.distantPast

    init(settings: MQTTSettings, session: MosquittoSession, credentials: MQTTCredentials?,
         discovery: [(topic: String, payload: String)], log: @escaping @Sendable (String) -> Void, publisher: MQTTPublisher) {
        self.settings = settings
        self.session = session
        self.credentials = credentials
        self.discovery = discovery
        self.log = log
        self.publisher = publisher
    }

    func run() {
        while true {
            let (state, stopping) = publisher.take()
            if stopping { break }
            if connected {
                publishIfDue(state)
                // Sleeps in select() until traffic or 1 s: about one wake-up a second.
                let (alive, reason) = session.service(milliseconds: 1000)
                if !alive { lost("the connection to \(settings.broker) was lost: \(reason)", kind: "away") }
            } else if Date() >= nextAttempt {
                attempt()
            } else {
                usleep(UInt32(min(1, max(0.01, nextAttempt.timeIntervalSinceNow)) * 1_000_000))
            }
        }
        if connected {
            session.publish(settings.availabilityTopic, "offline")
            session.disconnect(flushFor: 500)
        }
        publisher.markFinished()
    }

    private func attempt() {
        attempts += 1
        if attempts > 1 { refreshCredentials() }
        switch session.connect(to: settings.broker, keepAliveSeconds: 60, timeout: 10) {
        case .connected:
            connected = true
            failures = 0
            if let start = outageStart {
                log("MQTT: connected to \(settings.broker) again after \(Int(Date().timeIntervalSince(start).rounded())) s; publishing the current totals")
            } else {
                log("MQTT: connected to \(settings.broker), publishing as \(settings.deviceID)")
            }
            outageStart = nil
            lastProblemKind = nil
            for message in discovery { session.publish(message.topic, message.payload) }
            session.publish(settings.availabilityTopic, "online")
            lastSent = nil   // the broker may have lost the retained state: send it again
            publisher.record { $0.connected = true; $0.connections += 1; $0.problem = nil }
            publishIfDue(publisher.take().state)
        case .refused(let code):
            fail(MQTTPublisher.refusal(code, settings: settings), kind: "refused")
        case .unresolved(let reason):
            fail("cannot reach the broker \(settings.broker): \(reason) (in mqtt_broker)", kind: "away")
        case .failed(let code, let reason):
            if code == 8 || code == 23, !MQTTPublisher.isCertificateProblem(reason) {   // MOSQ_ERR_TLS, MOSQ_ERR_TLS_HANDSHAKE
                fail("TLS with \(settings.broker) failed before a certificate was checked: \(reason): what answers there does not speak TLS "
                     + "(a plain MQTT port), or it ended the handshake (its log says why); fix: check that mqtt_broker names the broker's TLS port "
                     + "(mqtts://HOST:8883), or use mqtt:// for a plain port such as 1883", kind: "tls")
            } else if code == 8 || code == 23 {
                let fix = settings.caFile == nil
                    ? "set mqtt_ca_file to the CA that signed the broker's certificate, and name the host as the certificate does"
                    : "check that \(settings.caFile!) signed the broker's certificate and that \(settings.broker.host) is a name in it"
                fail("TLS with \(settings.broker) failed, the broker's certificate was rejected: \(reason); fix: \(fix)", kind: "tls")
            } else {
                // "Lookup error" alone did not say that the host name does not resolve, and no
                // line said where to look.
                // Something that accepted the connection and then closed it, or answered in another
                // protocol, was "cannot reach the broker …: The connection was lost".
                let notMQTT = "it is not an MQTT broker, or a TLS port reached with mqtt:// (use mqtts://), or a broker that refused this client (its log says why)"
                switch code {
                case 15:   // MOSQ_ERR_EAI
                    fail("cannot reach the broker \(settings.broker): no such host: \(settings.broker.host.escapedOnOneLine) does not resolve (\(reason)); "
                         + "fix: check that mqtt_broker names the broker", kind: "away")
                case 7, 2:   // MOSQ_ERR_CONN_LOST, MOSQ_ERR_PROTOCOL: during CONNECT
                    let what = code == 7 ? "accepted the connection and closed it before answering CONNECT" : "answered, but not in MQTT (\(reason))"
                    fail("no MQTT connection to \(settings.broker): something there \(what): \(notMQTT); "
                         + "fix: check that mqtt_broker names the broker's MQTT port (1883, or 8883 with mqtts://)", kind: "away")
                default:
                    fail("cannot reach the broker \(settings.broker): \(reason); fix: check that mqtt_broker names the broker and that it runs there (systemctl status mosquitto)",
                         kind: "away")
                }
            }
        }
    }

    /// Reads the credentials file again before a reconnection (the backoff paces it), so a
    /// password mended after the broker refused it is used without a restart (the refusal's fix
    /// says to mend the file; the old password was sent until imu-stepd restarted). A file that
    /// has become unreadable or malformed meanwhile is logged once, naming it and the fix, and the
    /// credentials read before are used: publishing goes on.
    private func refreshCredentials() {
        guard let path = settings.credentialsPath else { return }
        do throws(PublishError) {
            let read = try MQTTCredentials.load(path: path, owner: settings.credentialsOwner)
            if read != credentials {
                try session.setCredentials(read)
                credentials = read
            }
            credentialsProblem = nil
        } catch {
            let problem = error.description
            guard problem != credentialsProblem else { return }
            credentialsProblem = problem
            // One line in the form of every message: no sentences after a full stop.
            log("MQTT: \(problem); fix: \(error.fix ?? "mend the file"); connecting with the user name and password read before")
            publisher.record { $0.problemsLogged += 1 }
        }
    }

    private func lost(_ problem: String, kind: String) {
        connected = false
        publisher.record { $0.connected = false }
        fail(problem, kind: kind)
    }

    private func fail(_ problem: String, kind: String) {
        failures += 1
        let delay = min(settings.reconnectDelay.upperBound,
                        settings.reconnectDelay.lowerBound << min(failures - 1, 16))
        nextAttempt = Date().addingTimeInterval(Double(delay))
        if outageStart == nil { outageStart = Date() }
        let logIt = kind != lastProblemKind
        lastProblemKind = kind
        if logIt {
            log("MQTT: \(problem); retrying with backoff up to \(settings.reconnectDelay.upperBound) s: steps keep counting and the totals are published on reconnection")
        }
        publisher.record {
            $0.problem = problem
            if logIt { $0.problemsLogged += 1 }
        }
    }

    private func publishIfDue(_ state: PublishedState?) {
        guard connected, let state, state != lastSent, Date().timeIntervalSince(lastSentTime) >= 1 else { return }
        if session.publish(settings.stateTopic, state.json) {
            lastSent = state
            lastSentTime = Date()
            publisher.record { $0.statesPublished += 1 }
        }
    }
}
