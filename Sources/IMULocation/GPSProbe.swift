import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Pedometer

/// Whether ground speed from gpsd is available now: what `imu-info` reports as a capability.
public enum GPSAvailability: Equatable, Sendable {
    /// gpsd answers and a receiver reports a fix with a speed (m/s), after `ignored` fixes whose
    /// speed no ground speed has (`GroundSpeed.isPlausible`), the first `firstIgnored` m/s. They
    /// were dropped when a plausible fix followed them, and imu-info said nothing of them.
    case fix(metersPerSecond: Double, ignored: Int = 0, firstIgnored: Double? = nil)
    /// gpsd answers, but no fix came within the wait: no receiver, or no satellites in view.
    case noFix
    /// gpsd answers with fixes, but every speed in them was one no ground speed has
    /// (`GroundSpeed.isPlausible`): `count` of them within the wait, the first `firstMetersPerSecond`.
    /// Such fixes were said as "no fix", which sent the user looking at the sky, not the receiver.
    case implausible(count: Int, firstMetersPerSecond: Double)
    /// gpsd does not answer (the message names it and the fix).
    case unreachable(String)
}

public enum GPSProbe {
    /// How long a probe waits for a report with a fix, s: gpsd reports at 1 Hz, so two reports.
    public static let defaultWait = 2.0

    /// Connects to gpsd at `host:port`, asks for reports and waits up to `wait` seconds for a fix
    /// (with `wait` 0 it only connects: `.noFix` means reachable). Runs on a thread of its own:
    /// the socket calls block.
    public static func check(host: String, port: String, wait: Double = defaultWait) async -> GPSAvailability {
        do {
            return try await OwnThread.run(name: "gpsd-probe") { checkBlocking(host: host, port: port, wait: wait) }
        } catch {
            return .unreachable("\(error)")
        }
    }

    static func checkBlocking(host: String, port: String, wait: Double) -> GPSAvailability {
        GPSSpeedFeed.blockSIGPIPE()
        let client: GPSDClient
        do { client = try GPSDClient(host: host, port: port) } catch { return .unreachable(error.description) }
        // A question about reachability alone asks for no reports (a WATCH would wake the receiver).
        guard wait > 0 else { return .noFix }
        let deadline = BootClock.nowSeconds() + wait
        var implausible: [Double] = []
        do {
            try client.setWatching(true)
            while BootClock.nowSeconds() < deadline {
                switch try client.next(timeout: deadline - BootClock.nowSeconds()) {
                case .speed(let reading):
                    return .fix(metersPerSecond: reading.metersPerSecond, ignored: implausible.count, firstIgnored: implausible.first)
                case .implausible(let speed): implausible.append(speed)
                case .noFix, .none: break
                }
            }
        } catch {
            return .unreachable(error.description)
        }
        // A listener that never spoke (another service on that port, a stuck gpsd) was reported as
        // "ground_speed=available fix=no": gpsd greets every client with a VERSION report at once.
        guard client.reportsRead > 0 else {
            return .unreachable(GPSSpeedFeed.silentReason(host: host, port: port, within: wait))
        }
        if let first = implausible.first { return .implausible(count: implausible.count, firstMetersPerSecond: first) }
        return .noFix
    }
}
