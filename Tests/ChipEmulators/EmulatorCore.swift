import Foundation
import IMUSensors
import Synchronization

/// What a scripted motion says the chip feels at time t, in the chip's own axes.
public struct MotionTruth: Sendable, Equatable {
    /// Specific force in g.
    public var acceleration: Vector3
    /// rad/s.
    public var rotationRate: Vector3
    /// hPa.
    public var pressure: Double
    /// °C.
    public var temperature: Double

    public init(acceleration: Vector3 = Vector3(0, 0, 1), rotationRate: Vector3 = .zero,
                pressure: Double = 1013.25, temperature: Double = 25) {
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.pressure = pressure
        self.temperature = temperature
    }
}

/// A motion script: truth as a function of emulator time in seconds.
public typealias MotionScript = @Sendable (Double) -> MotionTruth

public enum Motions {
    /// Lying still, face up, at sea level.
    public static let still: MotionScript = { _ in MotionTruth() }
    /// A 2 Hz walk bounce (±0.3 g vertical), 1 Hz yaw sway (±0.5 rad/s) and a climb of 0.3 m/s
    /// (−0.036 hPa/s: about 0.12 hPa per metre near sea level).
    public static let walk: MotionScript = { t in
        MotionTruth(acceleration: Vector3(0.05 * sin(2 * .pi * t), 0.02, 1 + 0.3 * sin(2 * .pi * 2 * t)),
                    rotationRate: Vector3(0.1, -0.2, 0.5 * sin(2 * .pi * t)),
                    pressure: 1013.25 - 0.036 * t, temperature: 24 + 0.1 * t)
    }
}

/// Emulator time: manual (tests step it) or the boot clock (live sources).
public final class EmulatorClock: Sendable {
    private let state: Mutex<Double?>
    /// Manual clock starting at `start` seconds.
    public init(start: Double = 0) { state = Mutex(start) }
    /// Follows CLOCK_BOOTTIME.
    public static func boot() -> EmulatorClock {
        let c = EmulatorClock()
        c.state.withLock { $0 = nil }
        return c
    }
    public var now: Double { state.withLock { $0 } ?? BootClock.nowSeconds() }
    public var nowNanoseconds: Int64 { Int64((now * 1e9).rounded()) }
    public func advance(_ seconds: Double) { state.withLock { if let t = $0 { $0 = t + seconds } } }
}

/// A register-level chip: a 256-byte register file with the chip's auto-increment rule, reset,
/// data registers that follow a motion script at the configured output rate, and an optional FIFO.
/// Subclasses model one family each, from its datasheet.
///
/// Not `Sendable`: a chip is confined to the `EmulatedI2CBus` it is attached to, which runs every
/// transaction under its lock (as a real bus serialises them); tests reach an attached chip only
/// through `EmulatedI2CBus.withChip`.
open class EmulatedChip {
    public var registers = [UInt8](repeating: 0, count: 256)
    public var motion: MotionScript
    /// FIFO bytes, oldest first.
    public var fifo: [UInt8] = []
    /// Samples produced so far (data-register updates), for tests.
    public private(set) var samplesProduced = 0
    /// Every write this chip received: (first register, bytes), for transcript tests.
    public var writes: [(UInt8, [UInt8])] = []
    private var nextSampleTime: Double?
    private var lastRate = 0.0
    private(set) public var time = 0.0

    public init(motion: @escaping MotionScript) {
        self.motion = motion
        powerOnReset()
    }

    /// Power-on register values. Subclasses set their defaults after calling super.
    open func powerOnReset() {
        registers = [UInt8](repeating: 0, count: 256)
        fifo = []
        nextSampleTime = nil
    }

    /// Output data rate in Hz as the configuration registers say; 0 = not measuring.
    open var outputRateHz: Double { 0 }
    /// Capacity of the FIFO in bytes (oldest bytes are dropped when full).
    open var fifoCapacity: Int { 0 }
    /// Writes one sample of `truth` into the data registers (and the FIFO when enabled).
    open func produce(_ truth: MotionTruth) {}
    /// Is the register address advanced after each byte of a burst starting at `register`?
    open func autoIncrements(_ register: UInt8) -> Bool { true }
    /// The next register address after `register` in a burst (chips roll FIFO ports back).
    open func nextRegister(after register: UInt8) -> UInt8 { register &+ 1 }
    /// A register whose value is computed when read (FIFO counts, popping ports); nil = plain.
    open func readComputed(_ register: UInt8) -> UInt8? { nil }
    /// Side effects of a write (reset, FIFO flush, mode changes). Default: store.
    open func writeRegister(_ register: UInt8, _ value: UInt8) { registers[Int(register)] = value }
    /// Whether the chip answers at all (the MPU's magnetometer only in bypass mode).
    open var isReachable: Bool { true }

    /// Brings the data registers up to `now`: one sample per output period since the last call.
    public func advance(to now: Double) {
        time = now
        let rate = outputRateHz
        guard rate > 0 else { nextSampleTime = nil; return }
        if rate != lastRate { nextSampleTime = nil; lastRate = rate }   // a new ODR restarts the conversion clock
        let period = 1 / rate
        var t = nextSampleTime ?? now + period   // the first conversion completes one period after start
        while t <= now {
            produce(motion(t))
            samplesProduced += 1
            t += period
        }
        nextSampleTime = t
    }

    /// One read transaction: `count` bytes from `register` following the auto-increment rule.
    open func read(register: UInt8, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var r = register
        let increments = autoIncrements(register)
        for _ in 0..<count {
            out.append(readComputed(r) ?? registers[Int(r)])
            if increments { r = nextRegister(after: r) }
        }
        return out
    }

    /// One write transaction: `bytes` from `register`.
    open func write(register: UInt8, bytes: [UInt8]) {
        writes.append((register, bytes))
        var r = register
        let increments = autoIncrements(register)
        for b in bytes {
            writeRegister(r, b)
            if increments { r = nextRegister(after: r) }
        }
    }

    /// Appends to the FIFO, dropping the oldest bytes beyond capacity.
    public func push(fifo bytes: [UInt8]) {
        fifo.append(contentsOf: bytes)
        if fifo.count > fifoCapacity { fifo.removeFirst(fifo.count - fifoCapacity) }
    }
    /// Pops one FIFO byte; `empty` when there is none.
    public func popFIFO(empty: UInt8 = 0) -> UInt8 { fifo.isEmpty ? empty : fifo.removeFirst() }

    // MARK: Encoding helpers

    /// Rounds and clamps to the signed 16-bit range, as a chip's converter saturates.
    public static func int16(_ value: Double) -> Int16 {
        Int16(max(-32768, min(32767, value.rounded())))
    }
    public func putBE(_ register: Int, _ value: Int16) {
        let u = UInt16(bitPattern: value)
        registers[register] = UInt8(u >> 8); registers[register + 1] = UInt8(u & 0xFF)
    }
    public func putLE(_ register: Int, _ value: Int16) {
        let u = UInt16(bitPattern: value)
        registers[register] = UInt8(u & 0xFF); registers[register + 1] = UInt8(u >> 8)
    }
    public static func be(_ v: Int16) -> [UInt8] { let u = UInt16(bitPattern: v); return [UInt8(u >> 8), UInt8(u & 0xFF)] }
    public static func le(_ v: Int16) -> [UInt8] { let u = UInt16(bitPattern: v); return [UInt8(u & 0xFF), UInt8(u >> 8)] }

    /// Finds the integer x in `range` with f(x) closest to `target`, for monotonic f (either direction):
    /// how an emulator turns a physical value into the ADC count a compensation formula maps back.
    public static func invert(_ target: Double, in range: ClosedRange<Int>, _ f: (Int) -> Double) -> Int {
        var lo = range.lowerBound, hi = range.upperBound
        let increasing = f(hi) > f(lo)
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if (f(mid) < target) == increasing { lo = mid } else { hi = mid }
        }
        return abs(f(lo) - target) <= abs(f(hi) - target) ? lo : hi
    }
}
