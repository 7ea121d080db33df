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

/// An `I2CBus` whose devices are `EmulatedChip`s: counts transactions, records a transcript, and
/// injects faults (NACK bursts, EIO, stuck bus, vanishing devices, a vanished adapter).
public final class EmulatedI2CBus: I2CBus, @unchecked Sendable {
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

    public func attach(_ chip: EmulatedChip, at address: UInt8) { state.withLock { $0.chips[address] = chip } }
    public func chip(at address: UInt8) -> EmulatedChip? { state.withLock { $0.chips[address] } }
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
        let chip: EmulatedChip? = state.withLock { s in s.vanished.remove(address); return s.chips[address] }
        chip?.powerOnReset()
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
        let chip = try begin(address, .write(address: address, bytes: bytes), what: "write")
        guard let first = bytes.first else { return }
        chip.write(register: first, bytes: Array(bytes.dropFirst()))
        chip.advance(to: clock.now)   // a write that starts measuring starts the conversion clock now
    }

    public func read(_ address: UInt8, register: UInt8, count: Int, walk: RegisterWalk) throws(I2CError) -> [UInt8] {
        let chip = try begin(address, .read(address: address, register: register, count: count), what: "read \(count) byte(s) from \(I2CAddress.hex(register))")
        return chip.read(register: register, count: count)
    }

    /// Counts and records one transaction, applies faults, and brings the chip's time up to date.
    private func begin(_ address: UInt8, _ event: BusEvent, what: String) throws(I2CError) -> EmulatedChip {
        let now = clock.now
        let result: Result<EmulatedChip, I2CError> = state.withLock { s in
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
            return .success(chip)
        }
        let chip = try result.get()
        chip.advance(to: now)
        return chip
    }
}
