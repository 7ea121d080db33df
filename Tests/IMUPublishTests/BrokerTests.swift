import Foundation
import OffPool
import Testing
@testable import IMUPublish

/// The publisher against Debian's real Mosquitto broker, read back with mosquitto_sub.
@Suite(.offPool, .serialized, .enabled(if: MosquittoBroker.available, Comment(rawValue: MosquittoBroker.skipMessage)))
struct BrokerTests {
    static let walking = PublishedState(stepsToday: 420, distanceTodayMeters: 301.5, floorsAscendedToday: 2,
                                        floorsDescendedToday: 1, cadenceStepsPerSecond: 1.75, activity: "walking", confidence: "high")

    private func settings(_ broker: MosquittoBroker, tls: Bool = false, id: String = "test-\(UInt16.random(in: 0...9999))")
        -> MQTTSettings {
        var s = MQTTSettings(broker: BrokerAddress(host: tls ? "localhost" : "127.0.0.1", port: broker.port, usesTLS: tls), deviceID: id)
        s.reconnectDelay = 1...2
        return s
    }

    @Test func publishesDiscoveryAvailabilityAndRetainedState() throws {
        let broker = try MosquittoBroker()
        let log = LogLines()
        let publisher = try MQTTPublisher(settings: settings(broker, id: "pi4"), softwareVersion: "0.9.0", log: log.append)
        publisher.update(Self.walking)
        #expect(eventually(10) { publisher.status.statesPublished == 1 })
        // A subscriber that comes later gets everything, because every message is retained.
        let lines = try broker.receive(["homeassistant/#", "imukit/pi4/#"], count: 9)
        #expect(lines.filter { $0.hasPrefix("homeassistant/sensor/pi4/") }.count == 7)
        #expect(lines.contains("imukit/pi4/availability online"))
        let state = try #require(lines.first { $0.hasPrefix("imukit/pi4/state ") })
        #expect(state.contains("\"steps_today\":420") && state.contains("\"activity\":\"walking\""))
        publisher.stop()
        #expect(try broker.receive(["imukit/pi4/availability"], count: 1) == ["imukit/pi4/availability offline"])
        #expect(log.all.count == 1 && log.all[0].contains("connected"))
    }

    @Test func sendsOnChangeAndAtMostOnceASecond() throws {
        let broker = try MosquittoBroker()
        let publisher = try MQTTPublisher(settings: settings(broker), softwareVersion: "1", log: { _ in })
        defer { publisher.stop() }
        #expect(eventually(10) { publisher.status.connected })
        var state = Self.walking
        let start = Date()
        for step in 0..<40 {   // forty changes in two seconds
            state.stepsToday += 1
            publisher.update(state)
            usleep(50_000)
            _ = step
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect(eventually(3) { publisher.status.statesPublished >= 2 })
        let sent = publisher.status.statesPublished
        #expect(Double(sent) <= elapsed + 2, "\(sent) states in \(elapsed) s")
        // Unchanged state: nothing more is sent.
        usleep(2_500_000)
        let settled = publisher.status.statesPublished
        usleep(2_000_000)
        #expect(publisher.status.statesPublished == settled)
    }

    @Test func aBrokerThatGoesAwayGetsTheCurrentTotalsWhenBack() throws {
        let broker = try MosquittoBroker()
        let log = LogLines()
        let publisher = try MQTTPublisher(settings: settings(broker, id: "away"), softwareVersion: "1", log: log.append)
        defer { publisher.stop() }
        publisher.update(Self.walking)
        #expect(eventually(10) { publisher.status.statesPublished == 1 })
        broker.stop()
        #expect(eventually(10) { !publisher.status.connected })
        // Steps go on while the broker is away; several reconnection attempts fail meanwhile.
        var later = Self.walking
        later.stepsToday = 777
        publisher.update(later)
        usleep(4_000_000)
        #expect(publisher.status.problemsLogged == 1, "\(log.all)")
        try broker.start()   // a fresh broker: it kept nothing (persistence off)
        #expect(eventually(10) { publisher.status.connections == 2 })
        let lines = try broker.receive(["imukit/away/state", "homeassistant/sensor/away/steps_today/config"], count: 2)
        #expect(lines.contains { $0.hasPrefix("imukit/away/state ") && $0.contains("\"steps_today\":777") })
        #expect(lines.contains { $0.hasPrefix("homeassistant/sensor/away/steps_today/config") })
        #expect(log.all.filter { $0.contains("; retrying with backoff up to 2 s: steps keep counting") }.count == 1, "\(log.all)")
        #expect(log.all.last?.contains("again after") == true)
        // Each line in the form of every message: no full stop, no second sentence (it said
        // "…: Connection refused. Retrying with backoff … on reconnection.").
        #expect(log.all.allSatisfy { !$0.hasSuffix(".") && !$0.contains(". ") }, "\(log.all)")
    }

    @Test func aWrongPasswordIsNamedOnceWithItsFix() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-pw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (broker, credentials) = try passwordBroker(directory, first: "username=stepd\npassword=wrong-password\n")
        var s = settings(broker)
        s.credentialsPath = credentials
        let log = LogLines()
        let publisher = try MQTTPublisher(settings: s, softwareVersion: "1", log: log.append)
        usleep(5_000_000)   // attempts at 0, 1, 3 s
        #expect(!publisher.status.connected)
        #expect(publisher.status.problemsLogged == 1, "\(log.all)")
        #expect(log.all.first?.contains("refused the user name and password in \(credentials)") == true, "\(log.all)")
        // The refusal's fix says to mend the file: the same publisher reads it again before its next
        // attempt and connects (it sent the password read at start until imu-stepd restarted).
        defer { publisher.stop() }
        try "username=stepd\npassword=right-password\n".write(toFile: credentials, atomically: false, encoding: .utf8)
        #expect(eventually(10) { publisher.status.connected }, "\(log.all)")
    }

    /// A broker with the account stepd / right-password; the credentials file holds `first`.
    private func passwordBroker(_ directory: URL, first: String) throws -> (MosquittoBroker, String) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let passwords = directory.appendingPathComponent("passwd").path
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_passwd")
        make.arguments = ["-c", "-b", passwords, "stepd", "right-password"]
        try make.run()
        make.waitUntilExit()
        let credentials = directory.appendingPathComponent("credentials").path
        try first.write(toFile: credentials, atomically: false, encoding: .utf8)
        chmod(credentials, 0o600)
        return (try MosquittoBroker(extraConfig: "allow_anonymous false\npassword_file \(passwords)"), credentials)
    }

    /// A credentials file that turns malformed while the broker is away is named once, with the
    /// fix, and the password read before is used: publishing resumes, nothing loops.
    @Test func aCredentialsFileMalformedBeforeAReconnectionIsNamedOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-pw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (broker, credentials) = try passwordBroker(directory, first: "username=stepd\npassword=right-password\n")
        var s = settings(broker, id: "cred")
        s.credentialsPath = credentials
        let log = LogLines()
        let publisher = try MQTTPublisher(settings: s, softwareVersion: "1", log: log.append)
        defer { publisher.stop() }
        #expect(eventually(10) { publisher.status.connected }, "\(log.all)")
        try "stepd right-password\n".write(toFile: credentials, atomically: false, encoding: .utf8)
        broker.stop()
        usleep(4_000_000)   // attempts at 1, 3 s after the loss: each reads the file
        try broker.start()
        #expect(eventually(10) { publisher.status.connections == 2 }, "\(log.all)")
        let named = log.all.filter { $0.contains("MQTT credentials \(credentials):1: is not KEY=VALUE") }
        #expect(named.count == 1, "\(log.all)")
        #expect(named.first?.contains("fix: write the two lines username=NAME and password=SECRET") == true, "\(log.all)")
        #expect(named.first?.hasSuffix("; connecting with the user name and password read before") == true, "\(log.all)")
    }

    @Test func tlsWithTheRightCAConnectsAndAWrongOneIsRefused() throws {
        let pki = try TestPKI()
        let broker = try MosquittoBroker(extraConfig: """
            allow_anonymous true
            cafile \(pki.caCertificate)
            certfile \(pki.serverCertificate)
            keyfile \(pki.serverKey)
            """)
        var s = settings(broker, tls: true, id: "tls")
        s.caFile = pki.caCertificate
        let publisher = try MQTTPublisher(settings: s, softwareVersion: "1", log: { _ in })
        publisher.update(Self.walking)
        #expect(eventually(10) { publisher.status.statesPublished == 1 }, "\(publisher.status)")
        let lines = try broker.receive(["imukit/tls/state"], count: 1, extra: ["--cafile", pki.caCertificate])
        #expect(lines.first?.contains("\"steps_today\":420") == true)
        publisher.stop()

        s.caFile = pki.otherCACertificate
        s.deviceID = "tls-wrong"
        let log = LogLines()
        let refused = try MQTTPublisher(settings: s, softwareVersion: "1", log: log.append)
        defer { refused.stop() }
        usleep(4_000_000)
        #expect(!refused.status.connected)
        #expect(refused.status.problemsLogged == 1, "\(log.all)")
        #expect(log.all.first?.contains("certificate was rejected") == true)
        #expect(log.all.first?.contains(pki.otherCACertificate) == true)
    }

    /// mqtts:// to a plain MQTT port: the broker closes on the TLS hello. It was logged as "the
    /// broker's certificate was rejected" with the fix to set mqtt_ca_file, which no CA cures.
    @Test func tlsToAPlainPortSaysItIsNotTLS() throws {
        let broker = try MosquittoBroker()
        let log = LogLines()
        let publisher = try MQTTPublisher(settings: settings(broker, tls: true, id: "tls-plain"), softwareVersion: "1", log: log.append)
        defer { publisher.stop() }
        #expect(eventually(10) { publisher.status.problemsLogged == 1 }, "\(log.all)")
        #expect(!publisher.status.connected)
        let line = log.all.first ?? ""
        #expect(line.hasPrefix("MQTT: TLS with mqtts://localhost:\(broker.port) failed before a certificate was checked: "), "\(log.all)")
        #expect(line.contains("fix: check that mqtt_broker names the broker's TLS port (mqtts://HOST:8883), or use mqtt:// for a plain port such as 1883"),
                "\(log.all)")
        #expect(!line.contains("certificate was rejected") && !line.contains("mqtt_ca_file"), "\(log.all)")
    }

    @Test func tlsChecksTheHostName() throws {
        let pki = try TestPKI()
        let broker = try MosquittoBroker(extraConfig: """
            allow_anonymous true
            certfile \(pki.serverCertificate)
            keyfile \(pki.serverKey)
            """)
        // The right CA, but the certificate names only "localhost", not 127.0.0.1.
        var s = settings(broker, tls: true, id: "tls-name")
        s.broker.host = "127.0.0.1"
        s.caFile = pki.caCertificate
        let log = LogLines()
        let publisher = try MQTTPublisher(settings: s, softwareVersion: "1", log: log.append)
        defer { publisher.stop() }
        #expect(eventually(5) { publisher.status.problemsLogged == 1 })
        #expect(!publisher.status.connected)
        #expect(log.all.first?.contains("certificate was rejected") == true, "\(log.all)")
    }
}

/// A CA, a server certificate for the name `name` (localhost; not for the address 127.0.0.1) signed by it, and an unrelated
/// CA, made with openssl for one test.
struct TestPKI {
    let directory: String
    var caCertificate: String { directory + "/ca.pem" }
    var otherCACertificate: String { directory + "/other-ca.pem" }
    var serverCertificate: String { directory + "/server.pem" }
    var serverKey: String { directory + "/server.key" }

    init(name: String = "localhost") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-pki-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let d = directory
        try Self.run("""
            set -e; cd \(d)
            openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=imukit-test-ca 2>/dev/null
            openssl req -x509 -newkey rsa:2048 -nodes -keyout other-ca.key -out other-ca.pem -days 2 -subj /CN=other-ca 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=\(name) 2>/dev/null
            printf 'subjectAltName=DNS:\(name)\\n' > san.ext
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile san.ext 2>/dev/null
            chmod 644 server.key
            """)
    }

    private static func run(_ script: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        try p.run()
        p.waitUntilExit()
        if p.terminationStatus != 0 { throw CocoaError(.fileWriteUnknown) }
    }
}
