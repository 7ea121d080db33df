import Foundation
import IMULocation
import LoopbackListener
import OffPool
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What `GPSDClient.next` makes of gpsd's stream, read through the real libgps from a scripted
/// gpsd on 127.0.0.1: the exact reports, split and timed as a test needs them, which gpsfake cannot
/// give (its NMEA logs make no SKY reports, and gpsd writes each report whole).
@Suite(.offPool) struct GPSDReportTests {
    /// gpsd's greeting (sent before the client says anything) and one TPV with a 3-D fix at 5 m/s.
    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\n"
    static let tpv = #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"speed":5.000,"eps":1.0}"# + "\n"
    /// A satellite report, as gpsd sends one every cycle of a receiver that gives GSV/GSA: no speed.
    static let sky = #"{"class":"SKY","device":"/dev/ttyACM0","hdop":1.2,"satellites":[{"PRN":5,"el":40,"az":100,"ss":30,"used":true}]}"# + "\n"

    /// A gpsd stand-in: greets (`greetingDelay` s after it accepted a connection), waits for the
    /// client's WATCH, then writes `pieces` (each with the pause after it, s) and closes. Runs on a
    /// thread of its own (accept and the pauses block).
    final class ScriptedGPSD {
        let port: String
        /// Listens until the test ends (the thread holds only its descriptor).
        private let listener: LoopbackListener

        init(_ pieces: [(text: String, pause: Double)], greetingDelay: Double = 0) throws {
            listener = try #require(LoopbackListener())
            port = String(listener.port)
            let fd = listener.descriptor
            Thread {
                var client: Int32 = -1
                func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
                var buffer = [UInt8](repeating: 0, count: 512)
                // GPSDClient first connects and closes at once (ConnectOutcome.reach); the
                // connection that sends ?WATCH={...}; is libgps'.
                while true {
                    client = accept(fd, nil, nil)
                    guard client >= 0 else { return }
                    // A slow gpsd: greets late, unless the client closed first (the probe, or a
                    // client that gave up waiting).
                    var peer = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                    if greetingDelay > 0, poll(&peer, 1, Int32(greetingDelay * 1000)) > 0,
                       recv(client, &buffer, buffer.count, Int32(MSG_PEEK)) <= 0 {
                        close(client)
                        continue
                    }
                    send(GPSDReportTests.version)
                    if recv(client, &buffer, buffer.count, 0) > 0 { break }
                    close(client)
                }
                defer { close(client) }
                for piece in pieces {
                    send(piece.text)
                    if piece.pause > 0 { usleep(UInt32(piece.pause * 1_000_000)) }
                }
                // Reads what the client still sends, so that the close is an orderly end (EOF), not a reset.
                shutdown(client, Int32(SHUT_WR))
                while recv(client, &buffer, buffer.count, 0) > 0 {}
            }.start()
        }
    }

    /// Reads `client` with `next(timeout:)` until gpsd closes, `limit` s pass or 1000 calls were
    /// made (a client that polls makes that many in milliseconds); every call's result.
    static func readAll(_ client: GPSDClient, limit: Double = 10) -> (reports: [GPSDClient.Report], calls: Int) {
        var reports: [GPSDClient.Report] = [], calls = 0
        let deadline = Date().addingTimeInterval(limit)
        while Date() < deadline, calls < 1000 {
            calls += 1
            guard let report = try? client.next(timeout: 0.25) else { break }
            reports.append(report)
        }
        return (reports, calls)
    }

    static func speeds(_ reports: [GPSDClient.Report]) -> [Double] {
        reports.compactMap { if case .speed(let r) = $0 { r.metersPerSecond } else { nil } }
    }

    /// A TPV then five SKY reports are one reading: libgps kept the TPV's SPEED_SET bit through the
    /// SKY reports, and each of them was taken as a new 5 m/s reading (six in all).
    @Test func aReportWithoutSpeedDoesNotRepeatTheLastSpeed() throws {
        let gpsd = try ScriptedGPSD([(Self.tpv, 0.05)] + Array(repeating: (Self.sky, 0.05), count: 5))
        let client = try GPSDClient(host: "127.0.0.1", port: gpsd.port)
        try client.setWatching(true)
        let (reports, _) = Self.readAll(client)
        #expect(Self.speeds(reports) == [5.0], "reports: \(reports)")
        // VERSION, TPV and five SKY: every report was read.
        #expect(client.reportsRead == 7)
    }

    /// A TPV with the given speed, m/s, as gpsd writes it.
    static func tpv(speed: String) -> String {
        #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"speed":"# + speed + #","eps":1.0}"# + "\n"
    }

    /// Speeds no receiver on the ground measures are not used, and not dropped without a word
    /// either: each is `.implausible` (it was `.none`, as a satellite list is).
    @Test func anImplausibleSpeedIsReportedAsSuch() throws {
        let gpsd = try ScriptedGPSD([(Self.tpv(speed: "1e30"), 0.05), (Self.tpv(speed: "-5.0"), 0.05), (Self.tpv, 0.05)])
        let client = try GPSDClient(host: "127.0.0.1", port: gpsd.port)
        try client.setWatching(true)
        let reports = Self.readAll(client).reports.filter { $0 != .none }
        #expect(reports.count == 3, "\(reports)")
        #expect(reports.first == .implausible(1e30), "\(reports)")
        #expect(reports.dropFirst().first == .implausible(-5), "\(reports)")
        #expect(Self.speeds(reports) == [5.0])
    }

    /// The feed a tool runs counts them for the summary (gnss_speed_ignored) and says the
    /// first once, naming gpsd, the value and where to look; the plausible reading still counts.
    @Test func theFeedCountsImplausibleSpeedsAndSaysTheFirstOnce() async throws {
        let gpsd = try ScriptedGPSD([(Self.tpv(speed: "1e30"), 0.05), (Self.tpv(speed: "-5.0"), 0.05), (Self.tpv, 3)])
        let lines = GPSSpeedFeedTests.Lines()
        let feed = GPSSpeedFeed(host: "127.0.0.1", port: gpsd.port, settings: "check the address", notify: lines.add)
        feed.start()
        defer { feed.stop() }
        #expect(await GPSSpeedFeedTests.eventually(20) { feed.status.readings == 1 }, "\(lines.all)")
        #expect(feed.status.implausibleReadings == 2)
        let said = lines.all.filter { $0.contains("reported a ground speed") }
        #expect(said == ["gpsd at 127.0.0.1:\(gpsd.port) reported a ground speed of 1e+30 m/s, which no receiver on the ground measures "
                         + "(negative, or beyond 150 m/s): such fixes are ignored and counted (gnss_speed_ignored); "
                         + "check the receiver (gpsmon shows what it sends)"], "\(lines.all)")
    }

    /// imu-info's probe: gpsd answers with fixes whose speeds are all implausible. It said "no
    /// fix" (no receiver, or no satellites in view), which sent the user to the sky, not the receiver.
    @Test func theProbeCountsImplausibleSpeedsInsteadOfSayingNoFix() async throws {
        let pair = [(Self.tpv(speed: "1e30"), 0.2), (Self.tpv(speed: "-5.0"), 0.2)]
        // 4 s of reports, past the probe's 2 s wait.
        let gpsd = try ScriptedGPSD(Array(Array(repeating: pair, count: 10).joined()))
        let result = await GPSProbe.check(host: "127.0.0.1", port: gpsd.port)
        guard case let .implausible(count, first) = result else {
            Issue.record("\(result)")
            return
        }
        // 2 s at one report each 0.2 s: about 10; at least the first pair on a loaded machine.
        #expect(count >= 2, "\(result)")
        #expect(first == 1e30)
    }

    /// Implausible speeds, then a fix: the probe returned the fix alone and the count was lost,
    /// so imu-info said nothing of the fixes it had ignored (sweep29). The fix carries it now.
    @Test func theProbeKeepsTheCountOfSpeedsIgnoredBeforeAFix() async throws {
        let gpsd = try ScriptedGPSD([(Self.tpv(speed: "1e30"), 0.1), (Self.tpv(speed: "-5.0"), 0.1), (Self.tpv(speed: "5.0"), 0.1)])
        let result = await GPSProbe.check(host: "127.0.0.1", port: gpsd.port)
        guard case let .fix(speed, ignored, first) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(speed == 5 && ignored == 2 && first == 1e30, "\(result)")
    }

    /// A listener that accepts and never speaks is not gpsd (gpsd greets every client with
    /// VERSION at once): the feed said "ground speed from gpsd at …" and stayed connected, so the
    /// summary claimed ground speed with 0 readings. It is unreachable now, named as such.
    @Test func aListenerThatNeverSpeaksIsNotTakenForGPSD() async throws {
        // The kernel completes the handshake of a listening socket nobody accepts on: connected, silent.
        let listener = try #require(LoopbackListener())
        let lines = GPSSpeedFeedTests.Lines()
        let feed = GPSSpeedFeed(host: "127.0.0.1", port: String(listener.port), settings: "check the address", notify: lines.add)
        feed.start()
        defer { feed.stop() }
        // 3 s of greeting patience; 20 leaves room for a loaded machine.
        #expect(await GPSSpeedFeedTests.eventually(20) { feed.status.connection != .starting && !lines.all.isEmpty })
        usleep(500_000)
        #expect(feed.status.connection.word == "unreachable", "\(lines.all)")
        #expect(lines.all.count == 1, "\(lines.all)")
        #expect(lines.all.first?.contains("gpsd at 127.0.0.1:\(listener.port) is not reachable (127.0.0.1:\(listener.port) accepted the connection "
                                          + "but sent nothing within 3 s: it is not gpsd, or gpsd is stuck") == true, "\(lines.all)")
        withExtendedLifetime(listener) {}
    }

    /// A gpsd slow to greet (4 s, past the 3 s after which the feed says the listener is silent)
    /// is used once it greets. The feed dropped the connection after 3 s and connected again, to
    /// wait 3 s again: a gpsd whose every greeting took longer gave no speed for the whole run.
    @Test func aGPSDSlowToGreetIsUsedOnceItGreets() async throws {
        let gpsd = try ScriptedGPSD(Array(repeating: (Self.tpv, 0.2), count: 50), greetingDelay: GPSSpeedFeed.greetingPatience + 1)
        let lines = GPSSpeedFeedTests.Lines()
        let feed = GPSSpeedFeed(host: "127.0.0.1", port: gpsd.port, settings: "check the address", notify: lines.add)
        feed.start()
        defer { feed.stop() }
        // 4 s of greeting; 20 leaves room for a loaded machine.
        #expect(await GPSSpeedFeedTests.eventually(20) { feed.status.readings > 0 }, "\(lines.all)")
        #expect(feed.status.connection == .connected, "\(lines.all)")
        // Said while it waited, and when gpsd answered.
        #expect(lines.all.count == 2, "\(lines.all)")
        #expect(lines.all.first?.contains("accepted the connection but sent nothing within 3 s") == true, "\(lines.all)")
        #expect(lines.all.first?.hasSuffix("working from the IMU alone, and waiting for it to answer") == true, "\(lines.all)")
        #expect(lines.all.last == "gpsd at 127.0.0.1:\(gpsd.port) answered after all: ground speed from now on (speed only, never a position)",
                "\(lines.all)")
    }

    /// A line longer than libgps' buffer without its end (a stream that is not gpsd's JSON):
    /// libgps gives up on it as on a closed connection (-1, errno 0), which was reported as "gpsd
    /// closed the connection" while it was open. It is named for what it is, and nothing spins.
    @Test func aLineLongerThanLibgpsReadsIsNamedNotCalledAClose() throws {
        let long = #"{"class":"SKY","junk":""# + String(repeating: "a", count: 100_000)
        let gpsd = try ScriptedGPSD([(Self.tpv, 0.05), (long, 2.0), ("\"}\n" + Self.tpv, 0.05)])
        let client = try GPSDClient(host: "127.0.0.1", port: gpsd.port)
        try client.setWatching(true)
        let deadline = Date().addingTimeInterval(5)
        var lost: GPSDError?, calls = 0
        while lost == nil, Date() < deadline, calls < 1000 {
            calls += 1
            do { _ = try client.next(timeout: 0.25) } catch { lost = error }
        }
        #expect(calls < 50, "\(calls) calls")
        let reason = lost.map { "\($0)" } ?? "not lost"
        #expect(reason.contains("127.0.0.1:\(gpsd.port) sent a line longer than libgps reads without its end: not gpsd's JSON"), "\(reason)")
        #expect(!reason.contains("closed the connection"), "\(reason)")
    }

    /// A report that arrives in two pieces 1 s apart is waited for, not polled: libgps' gps_waiting
    /// says "ready" at once while it holds part of a line, and `next` asked it again and again
    /// (hundreds of thousands of calls a second, each repeating the last speed as a reading).
    @Test func aReportInPiecesIsWaitedForNotPolled() throws {
        let half = Self.sky.index(Self.sky.startIndex, offsetBy: Self.sky.count / 2)
        let gpsd = try ScriptedGPSD([(Self.tpv, 0.05), (String(Self.sky[..<half]), 1.0), (String(Self.sky[half...]), 0.05)])
        let client = try GPSDClient(host: "127.0.0.1", port: gpsd.port)
        try client.setWatching(true)
        let (reports, calls) = Self.readAll(client)
        #expect(Self.speeds(reports).count == 1)
        // 1.1 s of pauses at 0.25 s a call: about 5 calls that wait, a few that bring a report; 50
        // leaves room for a slow machine and is far below what polling makes.
        #expect(calls < 50, "\(calls) calls to next(timeout: 0.25) in about 1.1 s")
        #expect(client.reportsRead == 3 || calls >= 1000)
    }
}
