import CMosquitto
import Foundation
import IMUCore
import LoopbackListener
import OffPool
import Testing
@testable import IMUPublish

/// A broker's name with several addresses (an IPv6 and an IPv4 one, as a dual-stack host's): each
/// address tried in turn, with a blocking connect, held the publisher for minutes when the first
/// never answered. Every address now shares one deadline (`ConnectOutcome.timeout`), and a
/// failure names the host and each address. No resolver here can give a name two addresses, so
/// getaddrinfo's answer is injected (`ConnectOutcome.reach`, `MosquittoSession.connect(resolve:)`).
@Suite(.offPool) struct DualStackConnectTests {
    /// The first two addresses never answer; the third accepts: it is found at once, not after
    /// one timeout per silent address (3 s each, 6 s here).
    @Test func theAddressThatAnswersIsFoundWithinOneDeadline() throws {
        let silentV6 = try #require(SilentListener(address: "::1"))
        let silentV4 = try #require(SilentListener(address: "127.0.0.2"))
        let open = try #require(LoopbackListener())
        let addresses = try [ResolvedAddress("::1", port: silentV6.port), ResolvedAddress("127.0.0.2", port: silentV4.port),
                             ResolvedAddress("127.0.0.1", port: open.port)].map { try #require($0) }
        let began = Date()
        let reached = ConnectOutcome.reach(addresses, host: "broker.test")
        let took = Date().timeIntervalSince(began)
        #expect(reached.answered == addresses[2], "\(String(describing: reached.failure))")
        // Loopback accepts within milliseconds; one deadline (3 s) is the bound, far below two.
        #expect(took < ConnectOutcome.timeout, "took \(took) s")
    }

    /// No address answers: one deadline in all, and the failure names the host and both addresses.
    @Test func noAnswerNamesTheHostAndEachAddressWithinOneDeadline() throws {
        let silentV6 = try #require(SilentListener(address: "::1"))
        let silentV4 = try #require(SilentListener(address: "127.0.0.2"))
        let addresses = try [ResolvedAddress("::1", port: silentV6.port), ResolvedAddress("127.0.0.2", port: silentV4.port)].map { try #require($0) }
        let began = Date()
        let reached = ConnectOutcome.reach(addresses, host: "broker.test")
        let took = Date().timeIntervalSince(began)
        #expect(reached.answered == nil && reached.timedOut)
        #expect(reached.failure == ConnectOutcome.timedOut + "; tried broker.test at ::1 and 127.0.0.2")
        // One deadline (3 s), with a loaded machine's second of margin; two deadlines are 6 s.
        #expect(took >= ConnectOutcome.timeout - 0.01 && took < ConnectOutcome.timeout + 1.5, "took \(took) s")
    }

    /// Addresses that fail differently are each named with their own reason.
    @Test func addressesThatFailDifferentlyAreEachNamed() throws {
        let silent = try #require(SilentListener(address: "::1"))
        let closed = try #require(LoopbackListener.freePort())
        let addresses = try [ResolvedAddress("::1", port: silent.port), ResolvedAddress("127.0.0.1", port: closed)].map { try #require($0) }
        let reached = ConnectOutcome.reach(addresses, host: "broker.test")
        #expect(reached.failure == "no address answered; tried broker.test at ::1 (\(ConnectOutcome.timedOut)) and "
                + "127.0.0.1 (connection refused: nothing listens on that port)")
    }
}

/// The same against Debian's real Mosquitto on 127.0.0.1, the name's IPv6 address never answering.
@Suite(.offPool, .serialized, .enabled(if: MosquittoBroker.available, Comment(rawValue: MosquittoBroker.skipMessage)))
struct DualStackBrokerTests {
    /// A session to "broker.test":`port`, whose getaddrinfo answer is `addresses` (IPv6 first, as
    /// a dual-stack name's): what its connect gave and how long it took, s.
    private func connect(port: Int, addresses: [ResolvedAddress]) throws -> (MosquittoSession.Outcome, Double) {
        let settings = MQTTSettings(broker: BrokerAddress(host: "broker.test", port: port, usesTLS: false), deviceID: "dual-stack")
        let session = try MosquittoSession(clientID: "imukit-dual-stack", settings: settings, credentials: nil)
        let began = Date()
        let outcome = session.connect(to: settings.broker, keepAliveSeconds: 60, timeout: 10) { _, _ in .success(addresses) }
        let took = Date().timeIntervalSince(began)
        if outcome == .connected { session.disconnect(flushFor: 100) }
        return (outcome, took)
    }

    /// A dual-stack name whose IPv6 address drops every SYN and whose IPv4 address is the broker:
    /// connected within seconds, at the address that answered.
    @Test func aNameWhoseFirstAddressNeverAnswersConnectsAtTheOther() throws {
        let broker = try MosquittoBroker()
        let silent = try #require(SilentListener(address: "::1", port: broker.port))
        let addresses = try [ResolvedAddress("::1", port: silent.port), ResolvedAddress("127.0.0.1", port: broker.port)].map { try #require($0) }
        let (outcome, took) = try connect(port: broker.port, addresses: addresses)
        #expect(outcome == .connected)
        #expect(took < ConnectOutcome.timeout, "connected at once, not after the silent address's timeout")
    }

    /// A session over TLS to `name`:`port` (the CA file `ca`), whose getaddrinfo answer is `addresses`.
    /// Debian's mosquitto on the loopback speaking TLS only, with `pki`'s server certificate.
    private static func tlsBroker(_ pki: TestPKI) throws -> MosquittoBroker {
        try MosquittoBroker(extraConfig: """
            allow_anonymous true
            certfile \(pki.serverCertificate)
            keyfile \(pki.serverKey)
            """)
    }

    private func connectTLS(name: String, port: Int, ca: String, addresses: [ResolvedAddress],
                            timeout: Double = 10) throws -> (MosquittoSession.Outcome, Double) {
        var settings = MQTTSettings(broker: BrokerAddress(host: name, port: port, usesTLS: true), deviceID: "tls-two-v4")
        settings.caFile = ca
        let session = try MosquittoSession(clientID: "imukit-tls-two-v4", settings: settings, credentials: nil)
        let began = Date()
        let outcome = session.connect(to: settings.broker, keepAliveSeconds: 60, timeout: timeout) { _, _ in .success(addresses) }
        let took = Date().timeIntervalSince(began)
        if outcome == .connected { session.disconnect(flushFor: 100) }
        return (outcome, took)
    }

    /// At the digits, the name still goes out as SNI (RFC 6066), which a broker behind a name-based
    /// TLS front (a cloud broker) needs: libmosquitto sets SNI to the host it connects to, the digits.
    /// `openssl s_server -servername broker.test -servername_fatal` ends a handshake with any other
    /// SNI with a fatal alert; with the name, the handshake completes and the CONNECT, which
    /// s_server does not answer, times out.
    @Test func theNameIsSentAsSNIAtTheDigits() throws {
        let pki = try TestPKI(name: "broker.test")
        let port = try #require(LoopbackListener.freePort())
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-sni-\(UUID().uuidString).log").path
        #expect(FileManager.default.createFile(atPath: log, contents: nil))
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        server.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", pki.serverCertificate, "-key", pki.serverKey,
                            "-cert2", pki.serverCertificate, "-key2", pki.serverKey, "-servername", "broker.test", "-servername_fatal"]
        let input = Pipe()   // held open: s_server stops at the end of its input
        server.standardInput = input
        server.standardOutput = FileHandle(forWritingAtPath: log)
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            // SIGKILL: s_server outlived a SIGTERM (Process.terminate) here.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        // Listening once it says ACCEPT (at most 5 s).
        for _ in 0..<100 where !((try? String(contentsOfFile: log, encoding: .utf8))?.contains("ACCEPT") ?? false) { usleep(50_000) }
        let addresses = [try #require(ResolvedAddress("127.0.0.1", port: port))]
        let (outcome, _) = try connectTLS(name: "broker.test", port: port, ca: pki.caCertificate, addresses: addresses, timeout: 2)
        #expect(outcome == .failed(MOSQ_ERR_TIMEOUT.rawValue, "no answer to CONNECT within 2 s"), "\(outcome)")
    }

    /// A TLS broker whose name has two IPv4 addresses (two A records), the first silent: mqtts://
    /// went to libmosquitto by the name, its socket bound to the answering address's family, which
    /// both share: libmosquitto resolved the name again and connected to the silent one first,
    /// blocking for minutes. It goes to the digits that answered now, and the certificate is still
    /// checked against the name (the broker's names broker.test alone).
    @Test func aTLSNameWithTwoIPv4AddressesTheFirstSilentConnectsAtTheSecond() throws {
        let pki = try TestPKI(name: "broker.test")
        let broker = try Self.tlsBroker(pki)
        let silent = try #require(SilentListener(address: "127.0.0.2", port: broker.port))
        let addresses = try [ResolvedAddress("127.0.0.2", port: silent.port), ResolvedAddress("127.0.0.1", port: broker.port)].map { try #require($0) }
        let (outcome, took) = try connectTLS(name: "broker.test", port: broker.port, ca: pki.caCertificate, addresses: addresses)
        #expect(outcome == .connected)
        #expect(took < ConnectOutcome.timeout, "connected at once, not after the silent address's timeout")
    }

    /// Connecting by the digits does not loosen the check: a certificate that does not name the
    /// broker's name is refused (the TLS context checks the name, not the address).
    @Test func aTLSNameTheCertificateDoesNotNameIsRefusedAtItsDigits() throws {
        let pki = try TestPKI(name: "broker.test")
        let broker = try Self.tlsBroker(pki)
        let addresses = [try #require(ResolvedAddress("127.0.0.1", port: broker.port))]
        let (outcome, _) = try connectTLS(name: "other.test", port: broker.port, ca: pki.caCertificate, addresses: addresses)
        guard case let .failed(code, reason) = outcome else { Issue.record("\(outcome)"); return }
        #expect(code == MOSQ_ERR_TLS.rawValue || code == MOSQ_ERR_TLS_HANDSHAKE.rawValue, "\(code): \(reason)")
        #expect(reason.contains("certificate verify failed"), "\(reason)")
    }

    /// Both addresses silent: the session says so within one deadline, naming the host and both.
    @Test func aNameWithNoAddressAnsweringIsNamedWithEachAddress() throws {
        let silentV6 = try #require(SilentListener(address: "::1"))
        let silentV4 = try #require(SilentListener(address: "127.0.0.2", port: silentV6.port))
        let addresses = try [ResolvedAddress("::1", port: silentV6.port), ResolvedAddress("127.0.0.2", port: silentV4.port)].map { try #require($0) }
        let (outcome, took) = try connect(port: silentV6.port, addresses: addresses)
        guard case let .failed(_, reason) = outcome else { Issue.record("\(outcome)"); return }
        #expect(reason == ConnectOutcome.timedOut + "; tried broker.test at ::1 and 127.0.0.2")
        #expect(took < ConnectOutcome.timeout + 1.5)
    }
}
