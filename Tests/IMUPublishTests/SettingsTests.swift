import Foundation
import LoopbackListener
import Testing
@testable import IMUPublish

@Suite struct BrokerAddressTests {
    @Test(arguments: [("mqtt://broker.lan", "broker.lan", 1883, false), ("mqtts://broker.lan", "broker.lan", 8883, true),
                      ("mqtt://10.0.0.2:1884", "10.0.0.2", 1884, false), ("mqtts://[::1]:8884/", "::1", 8884, true)])
    func parses(url: String, host: String, port: Int, tls: Bool) throws {
        let address = try BrokerAddress(parsing: url, origin: "stepd.conf:3")
        #expect(address == BrokerAddress(host: host, port: port, usesTLS: tls))
    }

    @Test(arguments: ["http://broker", "mqtt://", "mqtt://host:0", "mqtt://host:99999", "mqtt://host:12ab",
                      "mqtt://user:pw@host", "mqtt://host/topic", "broker.lan"])
    func refusesWithTheFix(url: String) {
        #expect {
            try BrokerAddress(parsing: url, origin: "stepd.conf:3")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("stepd.conf:3: ") && (error as? PublishError)?.fix?.contains("mqtt://HOST:1883") == true
        }
    }

    /// A host no broker can have was accepted (`mqtt://my broker`, or `mqtt://[::1` taken as the
    /// host "[:" on port 1) and failed at each connection, in the journal only.
    @Test(arguments: [("mqtt://my broker", "the host holds a space"), ("mqtt://[::1", "the '[' of an IPv6 address is not closed by ']'"),
                      ("mqtt://[::1]x", "only ':PORT' may follow the ']'"), ("mqtt://::1", "more than one ':' outside brackets"),
                      ("mqtt://tab\there", "the host holds a control character"), ("mqtt://host:+1883", "has no valid port"),
                      ("mqtt://'broker'", "the host holds '''")])
    func aHostNoBrokerCanHaveIsNamed(url: String, problem: String) {
        #expect {
            try BrokerAddress(parsing: url, origin: "stepd.conf:3")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("stepd.conf:3: broker ") && text.contains(problem) && (error as? PublishError)?.fix?.contains("mqtt://HOST:1883") == true
        }
    }

    /// `mqtt_device_id = kitchen+pi` said only "must be 1 to 64 of A-Z a-z 0-9 _ -", not that '+'
    /// is MQTT's wildcard; an empty one read "mqtt_device_id  must be".
    @Test(arguments: [("kitchen+pi", "holds '+', a wildcard in MQTT topic filters"), ("a#", "holds '#', a wildcard in MQTT topic filters"),
                      ("a/b", "holds '/', which splits an MQTT topic into levels"), ("", "is empty"),
                      (String(repeating: "x", count: 65), "is 65 characters long"), ("nul\u{0}x", "holds a control character")])
    func aDeviceIDThatCannotNameATopicSaysWhy(id: String, problem: String) {
        #expect {
            try MQTTSettings.from(["mqtt_broker": "mqtt://h", "mqtt_device_id": id], origin: "f:3")
        } throws: { error in
            "\(error)".hasPrefix("f:3: mqtt_device_id '") && "\(error)".contains("' \(problem); it names the MQTT topics")
                && (error as? PublishError)?.fix?.hasPrefix("choose a name like kitchen-pi") == true
        }
    }

    @Test func settingsComeFromConfigKeys() throws {
        #expect(try MQTTSettings.from([:], origin: "f") == nil)
        // A forgotten or empty broker line turned publishing off without a word.
        #expect(try MQTTSettings.from(["mqtt_broker": "", "mqtt_device_id": ""], origin: "f") == nil)
        #expect {
            try MQTTSettings.from(["mqtt_credentials": "/etc/imukit/mqtt-credentials", "mqtt_broker": ""], origin: "f:3")
        } throws: { error in
            "\(error)" == "f:3: mqtt_credentials is set but mqtt_broker is not, so nothing is published"
                && (error as? PublishError)?.fix?.contains("mqtt_broker = mqtt://HOST") == true
        }
        let s = try #require(try MQTTSettings.from(["mqtt_broker": "mqtts://h", "mqtt_device_id": "kitchen-pi",
                                                    "mqtt_ca_file": "/etc/ca.pem"], origin: "f"))
        #expect(s.deviceID == "kitchen-pi" && s.caFile == "/etc/ca.pem")
        #expect(s.stateTopic == "imukit/kitchen-pi/state" && s.availabilityTopic == "imukit/kitchen-pi/availability")
        #expect(throws: PublishError.self) { try MQTTSettings.from(["mqtt_broker": "mqtt://h", "mqtt_device_id": "a/b#"], origin: "f") }
        #expect(throws: PublishError.self) { try MQTTSettings.from(["mqtt_broker": "mqtt://h", "mqtt_ca_file": "/ca"], origin: "f") }
        #expect(MQTTSettings.isTopicToken(MQTTSettings.defaultDeviceID()))
    }
}

@Suite struct CredentialsTests {
    private func file(_ text: String, mode: mode_t) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cred-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, mode)
        return path
    }

    @Test func readsAPrivateFile() throws {
        let path = try file("# broker account\nusername=stepd\npassword=s3cret=x\n", mode: 0o600)
        defer { unlink(path) }
        #expect(try MQTTCredentials.load(path: path) == MQTTCredentials(username: "stepd", password: "s3cret=x"))
    }

    @Test(arguments: [mode_t(0o640), 0o604, 0o644])
    func refusesAFileOthersCanRead(mode: mode_t) throws {
        let path = try file("username=a\npassword=b\n", mode: mode)
        defer { unlink(path) }
        #expect {
            try MQTTCredentials.load(path: path)
        } throws: { reported($0).contains("chmod 600 \(path)") }
    }

    @Test func refusesAFileOfAnotherUser() throws {
        let path = try file("username=a\npassword=b\n", mode: 0o600)
        defer { unlink(path) }
        #expect { try MQTTCredentials.load(path: path, owner: CredentialsOwner(uid: geteuid() + 1, name: "imu-stepd", reason: "the service user")) } throws: { reported($0).contains("chown") }
    }

    @Test(arguments: ["username=a\n", "user=a\npassword=b\n", "just a password\n", "username=\npassword=b\n"])
    func refusesMalformedContent(text: String) throws {
        let path = try file(text, mode: 0o600)
        defer { unlink(path) }
        #expect(throws: PublishError.self) { try MQTTCredentials.load(path: path) }
    }

    /// A NUL byte in the password was passed to libmosquitto, which ends a C string there: the
    /// broker got the password cut short, and the refusal's fix pointed at a file that looked right.
    @Test(arguments: ["username=stepd\npassword=right\u{0}rest\n", "username=st\u{0}epd\npassword=right\n"])
    func aNULByteIsNamedWithItsLine(text: String) throws {
        let path = try file(text, mode: 0o600)
        defer { unlink(path) }
        let key = text.hasPrefix("username=st\u{0}") ? "username" : "password"
        let line = key == "username" ? 1 : 2
        #expect {
            try MQTTCredentials.load(path: path)
        } throws: {
            let text = reported($0)
            return text.contains("\(path):\(line): the \(key) holds a NUL byte") && text.contains("fix: write the value without NUL bytes")
        }
    }

    @Test func aKeyWithEscapesIsShownEscaped() throws {
        let path = try file("username=a\npass\u{1B}[2Jword=b\n", mode: 0o600)
        defer { unlink(path) }
        #expect { try MQTTCredentials.load(path: path) } throws: { "\($0)".contains("pass\\x1B[2Jword") && !"\($0)".contains("\u{1B}") }
    }

    /// A directory or a FIFO named as the credentials file was "is not a regular file", with
    /// "point mqtt_credentials at a file" as the fix.
    @Test func aDirectoryOrAFIFOIsNamedAsWhatItIs() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cred-dir-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #require(mkfifo(dir + "/fifo", 0o600) == 0)
        for (path, kind) in [(dir, "a directory"), (dir + "/fifo", "a named pipe (FIFO)")] {
            #expect {
                try MQTTCredentials.load(path: path)
            } throws: { error in
                reported(error).contains("\(path): is \(kind), not a credentials file\n  fix: point mqtt_credentials at a file with the two lines username=NAME and password=SECRET")
            }
        }
    }

    @Test func namesAMissingFile() {
        #expect { try MQTTCredentials.load(path: "/nonexistent/imukit-cred") } throws: {
            reported($0).contains("/nonexistent/imukit-cred") && reported($0).contains("mode 600")
        }
    }
}

/// What a tool prints for `error`: its message and, on the next line, its fix.
private func reported(_ error: any Error) -> String {
    "\(error)\n  fix: \((error as? PublishError)?.fix ?? "")"
}

/// A broker that cannot be reached is one journal line that says why and where to look: a host
/// name that does not resolve said only "Lookup error", and no line gave a fix. No broker needed.
@Suite(.offPool) struct UnreachableBrokerTests {
    @Test(arguments: [("no-such-host.invalid", 1883, "no such host: no-such-host.invalid does not resolve"), ("127.0.0.1", 1, "Connection refused")])
    func anUnreachableBrokerIsNamedWithItsFix(host: String, port: Int, reason: String) {
        let log = LogLines()
        var settings = MQTTSettings(broker: BrokerAddress(host: host, port: port, usesTLS: false), deviceID: "unreachable")
        settings.reconnectDelay = 1...2
        guard let publisher = try? MQTTPublisher(settings: settings, softwareVersion: "1", log: log.append) else {
            Issue.record("the publisher did not start"); return
        }
        defer { publisher.stop() }
        #expect(eventually(20) { publisher.status.problemsLogged == 1 }, "\(log.all)")
        let line = log.all.first ?? ""
        #expect(line.hasPrefix("MQTT: cannot reach the broker mqtt://\(host):\(port): \(reason)"), "\(log.all)")
        #expect(line.contains("; fix: check that mqtt_broker names the broker"), "\(log.all)")
    }

    /// An address that never answers (its SYNs dropped) was silent for 134 s, libmosquitto's
    /// blocking connect waiting out the kernel's SYN retries, and as long again at each retry: it
    /// is named within seconds.
    @Test func anAddressThatNeverAnswersIsNamedWithinSeconds() throws {
        let listener = try #require(SilentListener(address: "127.0.0.1"))
        // 3 s of probe (ConnectOutcome.timeout); 20 s leaves room for a loaded machine, far below 134.
        let (line, log, _) = try firstProblem(port: listener.port, deviceID: "silent")
        #expect(line.hasPrefix("MQTT: cannot reach the broker mqtt://127.0.0.1:\(listener.port): timed out: nothing answered within 3 s"), "\(log)")
        #expect(line.contains("fix: check that mqtt_broker names the broker"), "\(log)")
    }

    /// A listener that accepts and closes at once (not a broker, or a broker refusing this client)
    /// was "cannot reach the broker …: The connection was lost": it was reached.
    @Test func aListenerThatIsNotABrokerIsNamedSo() throws {
        let listener = try #require(LoopbackListener())
        defer { listener.shutDown() }
        let port = listener.port
        listener.closeEveryConnection()
        let (line, log, _) = try firstProblem(port: port, deviceID: "not-a-broker")
        #expect(line.hasPrefix("MQTT: no MQTT connection to mqtt://127.0.0.1:\(port): something there accepted the connection and closed it before answering CONNECT: "
                               + "it is not an MQTT broker"), "\(log)")
        #expect(line.contains("fix: check that mqtt_broker names the broker's MQTT port"), "\(log)")
    }
}

/// A publisher to 127.0.0.1:`port` (retrying after 1–2 s) is started, and its first problem line
/// is awaited for up to 20 s (a loaded machine's margin over the 3 s probe): that line, every line
/// it logged, and whether it was connected then.
func firstProblem(port: Int, deviceID: String) throws -> (line: String, log: [String], connected: Bool) {
    let log = LogLines()
    var settings = MQTTSettings(broker: BrokerAddress(host: "127.0.0.1", port: port, usesTLS: false), deviceID: deviceID)
    settings.reconnectDelay = 1...2
    let publisher = try MQTTPublisher(settings: settings, softwareVersion: "1", log: log.append)
    defer { publisher.stop() }
    #expect(eventually(20) { publisher.status.problemsLogged == 1 }, "\(log.all)")
    return (log.all.first ?? "", log.all, publisher.status.connected)
}

/// A broker that refuses the CONNECT says why by its CONNACK code (MQTT 3.1.1, 3.2.2.3); only 4
/// and 5 concern the user name and password, and every refusal said to mend the credentials file.
/// A scripted broker on 127.0.0.1 answers every CONNECT with the code; no broker needed.
@Suite(.offPool) struct ConnackRefusalTests {
    @Test(arguments: [
        (Int32(2), "rejected the client id imukit-a-device-id-of-forty-characters-long (43 characters; MQTT 3.1.1 brokers need accept only 1 to 23)",
         "fix: set mqtt_device_id to at most 16 characters, or let the broker accept longer client ids"),
        (1, "refused MQTT 3.1.1, the protocol this client speaks", "fix: let the broker accept MQTT 3.1.1"),
        (3, "is up but takes no clients now (server unavailable)", "fix: see why in the broker's log"),
        (5, "refused an anonymous connection (not authorised)", "fix: set mqtt_credentials to a file"),
    ])
    func aRefusalNamesItsCause(code: Int32, problem: String, fix: String) throws {
        let listener = try #require(LoopbackListener())
        defer { listener.shutDown() }
        let fd = listener.descriptor
        Thread {
            // GPSDClient-style probe connections send nothing and close: answered by nothing.
            var buffer = [UInt8](repeating: 0, count: 1024)
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                if recv(client, &buffer, buffer.count, 0) > 0 {   // CONNECT
                    let connack: [UInt8] = [0x20, 0x02, 0x00, UInt8(code)]
                    _ = connack.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    while recv(client, &buffer, buffer.count, 0) > 0 {}
                }
                close(client)
            }
        }.start()
        let (line, log, connected) = try firstProblem(port: listener.port, deviceID: "a-device-id-of-forty-characters-long")
        #expect(line.hasPrefix("MQTT: the broker mqtt://127.0.0.1:\(listener.port) \(problem)"), "\(log)")
        #expect(line.contains(fix), "\(log)")
        #expect(code == 5 || !line.contains("user name") && !line.contains("credentials"), "\(log)")
        #expect(!connected)
    }
}

/// A CA file whose certificate block is no certificate passed the check at start (it held the
/// BEGIN line), and OpenSSL refused the whole file at the first handshake, logged as "the broker's
/// certificate was rejected (… PEM lib)" with the fix to check who signed it.
@Suite struct CAFileContentTests {
    /// A real certificate's first line of base64 ("MII" is a DER SEQUENCE with a 2-byte length).
    static let body = "MIIBszCCAVmgAwIBAgIUQ2Vy"

    private func problem(_ text: String) throws -> String? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).pem").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        defer { unlink(path) }
        return MQTTCAFile.problem(path)?.message.replacingOccurrences(of: path, with: "CA")
    }

    @Test(arguments: [
        ("-----BEGIN CERTIFICATE-----\nnot base64 at all!!\n-----END CERTIFICATE-----\n",
         "CA: the certificate that begins on line 1 is damaged: its body is not the base64 of a certificate"),
        ("# bundle\n-----BEGIN CERTIFICATE-----\nQUJD\n-----END CERTIFICATE-----\n",
         "CA: the certificate that begins on line 2 is damaged: its body is not the base64 of a certificate"),
        ("-----BEGIN CERTIFICATE-----\n\(body)\n", "CA: the certificate that begins on line 1 has no -----END CERTIFICATE----- line: the file is cut short"),
        ("-----BEGIN CERTIFICATE-----\n\(body)\n-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n",
         "CA: the certificate that begins on line 1 has no -----END CERTIFICATE----- line before the next certificate"),
    ])
    func aDamagedCertificateIsNamedWithItsLine(text: String, message: String) throws {
        #expect(try problem(text) == message)
    }

    /// Whole blocks pass, with CRLF line ends and text between them, as in Debian's bundle.
    @Test func wholeCertificatesPass() throws {
        let block = "-----BEGIN CERTIFICATE-----\r\n\(Self.body)\r\n-----END CERTIFICATE-----\r\n"
        #expect(try problem("# Root CA\r\n" + block + "\r\n# Another\r\n" + block) == nil)
    }
}
