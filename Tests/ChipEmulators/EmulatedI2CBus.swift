import Foundation
import IMUSensors
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A bus event, for transcript tests.
public enum BusEvent: Sendable, Equatable, CustomStringConvertible {
    case write(address: UInt8, bytes: [UInt8])
    case read(address: UInt8, register: UInt8, count: Int)

    public var description: String {
        switch self {
        case .write(let a, let b): return "W \(I2CAddress.hex(a)) " + b.map { I2CAddress.hex($0) }.joined(separator: " ")
        case .read(let a, let r, let n): return "R \(I2CAddress.hex(a)) \(I2CAddress.hex(r)) ×\(n)"
        }
    }
}

/// Faults the bus can inject on the next transactions.
public enum BusFault: Sendable, Equatable {
    /// ENXIO: no ACK (a NACK burst).
    case nack
    /// EIO.
    case io
    /// ETIMEDOUT: bus stuck.
    case timeout
    /// ENODEV: the adapter went away (permanent until `replug`).
    case adapterGone

    var errno: Int32 {
        switch self {
        case .nack: return ENXIO
        case .io: return EIO
        case .timeout: return ETIMEDOUT
        case .adapterGone: return ENODEV
        }
    }
}

/// An attached chip that is not there, or not of the type asked for.
public struct EmulatorError: Error, CustomStringConvertible {
    public let description: String
}

/// An `I2CBus` whose devices are `EmulatedChip`s: counts transactions, records a transcript, and
/// injects faults (NACK bursts, EIO, stuck bus, vanishing devices, a vanished adapter).
///
/// The chips live inside the bus's lock: every transaction runs whole under it, one at a time as on
/// a real bus, so a capture thread and a test can use the same bus without a data race.
public final class EmulatedI2CBus: I2CBus, Sendable {
    public let path: String
    public let clock: EmulatorClock
    private struct State {
        var chips: [UInt8: EmulatedChip] = [:]
        var kernelOwned: [UInt8: (String?, String?)] = [:]
        var transactions = 0
        var transcript: [BusEvent] = []
        var faults: [(BusFault, UInt8?)] = []
        var vanished: Set<UInt8> = []
        var unplugged = false
    }
    private let state = Mutex(State())

    public init(path: String = "/dev/i2c-1", clock: EmulatorClock = EmulatorClock()) {
        self.path = path
        self.clock = clock
    }

    // MARK: Set-up

    /// Attaches the chip `make` builds at `address` (built in the closure, so that nothing outside
    /// the bus keeps a reference to it).
    public func attach(at address: UInt8, _ make: () -> sending EmulatedChip) {
        state.withLock { $0.chips[address] = make() }
    }
    /// Attaches chips built together, by address (one may refer to another: the MPU-9150's AK8975
    /// answers only while its host's bypass bit is set).
    public func attach(_ make: () -> sending [UInt8: EmulatedChip]) {
        state.withLock { s in s.chips.merge(make()) { $1 } }
    }
    /// Runs `body` on the chip at `address`, seen as a `type`, under the bus's lock (no transaction
    /// runs meanwhile). Throws when there is no such chip.
    public func withChip<Chip: EmulatedChip, T: Sendable>(at address: UInt8, as type: Chip.Type,
                                                          _ body: (Chip) throws -> T) throws -> T {
        try state.withLock { s in
            guard let chip = s.chips[address] as? Chip else {
                throw EmulatorError(description: "no \(type) attached at \(I2CAddress.hex(address)) on \(path)")
            }
            return try body(chip)
        }
    }
    /// `withChip(at:as:_:)` for any chip.
    public func withChip<T: Sendable>(at address: UInt8, _ body: (EmulatedChip) throws -> T) throws -> T {
        try withChip(at: address, as: EmulatedChip.self, body)
    }
    /// Marks an address as bound to a kernel driver: I2C_SLAVE gives EBUSY.
    public func setKernelOwned(_ address: UInt8, driver: String?, iioDevice: String?) {
        state.withLock { $0.kernelOwned[address] = (driver, iioDevice) }
    }
    /// The next `count` transactions (to `address`, or any) fail with `fault`.
    public func inject(_ fault: BusFault, count: Int = 1, address: UInt8? = nil) {
        state.withLock { s in for _ in 0..<count { s.faults.append((fault, address)) } }
    }
    /// The chip stops answering (power lost, cable pulled): every transaction to it gets no ACK.
    public func vanish(_ address: UInt8) { state.withLock { _ = $0.vanished.insert(address) } }
    /// The chip answers again, with its power-on register values (it was power-cycled).
    public func reappear(_ address: UInt8) {
        state.withLock { s in
            s.vanished.remove(address)
            s.chips[address]?.powerOnReset()
        }
    }
    public func unplug() { state.withLock { $0.unplugged = true } }

    // MARK: Observation

    public var transactionCount: Int { state.withLock { $0.transactions } }
    public var transcript: [BusEvent] { state.withLock { $0.transcript } }
    public func clearTranscript() { state.withLock { $0.transcript = [] } }
    /// Writes to `address` as (register, value) pairs, in order.
    public func writes(to address: UInt8) -> [[UInt8]] {
        transcript.compactMap { if case .write(let a, let b) = $0, a == address { return b }; return nil }
    }

    // MARK: I2CBus

    public func claim(_ address: UInt8) throws(I2CError) {
        let r: I2CError? = state.withLock { s in
            if s.unplugged { return I2CError(errno: ENODEV, bus: path, address: address, operation: "claim address (I2C_SLAVE)") }
            if let owner = s.kernelOwned[address] {
                return I2CError(kind: .ownedByKernel, bus: path, address: address, operation: "claim address (I2C_SLAVE)",
                                errno: EBUSY, kernelDriver: owner.0, iioDevice: owner.1)
            }
            return nil
        }
        if let r { throw r }
    }

    public func write(_ address: UInt8, _ bytes: [UInt8]) throws(I2CError) {
        try transaction(address, .write(address: address, bytes: bytes), what: "write") { chip in
            guard let first = bytes.first else { return }
            chip.write(register: first, bytes: Array(bytes.dropFirst()))
            chip.advance(to: clock.now)   // a write that starts measuring starts the conversion clock now
        }
    }

    public func read(_ address: UInt8, register: UInt8, count: Int, walk: RegisterWalk) throws(I2CError) -> [UInt8] {
        try transaction(address, .read(address: address, register: register, count: count), what: "read \(count) byte(s) from \(I2CAddress.hex(register))") { chip in
            chip.read(register: register, count: count)
        }
    }

    /// One transaction, whole under the lock: counts and records it, applies faults, brings the
    /// chip's time up to date, then runs `body` on the chip.
    private func transaction<T: Sendable>(_ address: UInt8, _ event: BusEvent, what: String,
                                          _ body: (EmulatedChip) -> T) throws(I2CError) -> T {
        let now = clock.now
        let result: Result<T, I2CError> = state.withLock { s in
            s.transactions += 1
            s.transcript.append(event)
            if s.unplugged { return .failure(I2CError(errno: ENODEV, bus: path, address: address, operation: what)) }
            if let i = s.faults.firstIndex(where: { $0.1 == nil || $0.1 == address }) {
                let fault = s.faults.remove(at: i).0
                if fault == .adapterGone { s.unplugged = true }
                return .failure(I2CError(errno: fault.errno, bus: path, address: address, operation: what))
            }
            guard !s.vanished.contains(address), let chip = s.chips[address], chip.isReachable else {
                return .failure(I2CError(errno: EREMOTEIO, bus: path, address: address, operation: what))
            }
            chip.advance(to: now)
            return .success(body(chip))
        }
        return try result.get()
    }
}
