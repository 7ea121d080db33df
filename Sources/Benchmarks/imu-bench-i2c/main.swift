// imu-bench-i2c: transactions and bus bits per sample set for every supported chip, measured on
// the register-level emulators, and the sample rate each sustains on a 100 kHz and a 400 kHz bus.
// Prints figures; asserts nothing. The worked budget is docs/i2c-budget.md.
import BenchArguments
import ChipEmulators
import Foundation
import IMUSensors

BenchArguments.acceptNone("imu-bench-i2c", summary: "transactions and bus bits per sample set for every supported chip, and the rate each sustains on a 100 kHz and a 400 kHz bus")

/// Bus bit times of one transaction, from the I²C spec (UM10204 §3.1): START 1, each byte 8 + ACK 1,
/// repeated START 1, STOP 1. A combined read of N bytes: 1 + 9 (addr+W) + 9 (register) + 1 + 9 (addr+R) + 9N + 1 = 30 + 9N.
/// A write of n bytes (register included): 1 + 9 + 9n + 1 = 11 + 9n.
func bits(_ event: BusEvent) -> Int {
    switch event {
    case .read(_, _, let n): return 30 + 9 * n
    case .write(_, let bytes): return 11 + 9 * bytes.count
    }
}

struct Row {
    var chip: String
    var mode: String
    var rateHz: Double
    var sets: Int
    var transactions: Int
    var bits: Int
    var perSet: Double { Double(transactions) / Double(max(sets, 1)) }
    var bitsPerSet: Double { Double(bits) / Double(max(sets, 1)) }
    /// Sample sets per second the bus could carry at `hz` if it did nothing else.
    func ceiling(_ hz: Double) -> Double { hz / bitsPerSet }
}

/// Runs `name` for `seconds` of emulated time, polling as the source does (every sample without
/// FIFO, every 0.1 s with it), and counts what crossed the bus after configuration.
func measure(_ name: String, fifo: Bool, rateHz: Double, seconds: Double = 2, fifoPoll: Double = 0.1) throws -> Row {
    let clock = EmulatorClock(start: 1)
    let bus = EmulatedI2CBus(clock: clock)
    let address = EmulatorCatalog.attach(name, to: bus, motion: Motions.walk)
    let driver = ChipCatalog.model(named: name)!.makeDriver(I2CDevice(bus: bus, address: address, retry: EmulatorCatalog.noSleep))
    try driver.configure(rateHz: rateHz, useFIFO: fifo)
    bus.clearTranscript()
    let start = bus.transactionCount
    let poll = driver.usesFIFO ? fifoPoll : 1 / driver.outputRateHz
    var sets = 0
    var t = 0.0
    while t < seconds {
        clock.advance(poll)
        t += poll
        sets += try driver.readBatch().count
    }
    return Row(chip: name, mode: driver.usesFIFO ? "fifo" : "direct", rateHz: driver.outputRateHz, sets: sets,
               transactions: bus.transactionCount - start, bits: bus.transcript.map(bits).reduce(0, +))
}

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
func fmt(_ x: Double, _ d: Int = 1) -> String {
    let p = pow(10.0, Double(d))
    let r = (x * p).rounded() / p
    return d == 0 ? String(Int(r)) : String(r)
}

let imus = ["mpu6050", "mpu9150", "mpu6500", "mpu9250", "icm42688", "bmi160", "lsm6ds3", "lsm6dsl", "lsm6dso", "lsm9ds1", "adxl345", "lis3dh"]
let baros = ["bmp280", "bme280", "bmp388", "bmp390", "lps22hb", "lps25h", "dps310"]
var rows: [Row] = []
do {
    for name in imus {
        rows.append(try measure(name, fifo: false, rateHz: 100))
        if ChipCatalog.model(named: name)!.hasFIFO { rows.append(try measure(name, fifo: true, rateHz: 100)) }
    }
    for name in baros {
        rows.append(try measure(name, fifo: false, rateHz: 10, seconds: 4))
        // A barometer FIFO pays off only when drained rarely: once a second.
        if ChipCatalog.model(named: name)!.hasFIFO { rows.append(try measure(name, fifo: true, rateHz: 10, seconds: 4, fifoPoll: 1)) }
    }
} catch {
    print("imu-bench-i2c: \(error)")
    exit(1)
}

print("imu-bench-i2c: I²C cost per sample set on the chip emulators (2 s at ~100 Hz for IMUs, FIFO drained every 0.1 s; 4 s at ~10 Hz for barometers, FIFO drained every 1 s)")
print("bits per transaction: read N bytes = 30 + 9N, write n bytes = 11 + 9n (START, address+R/W, ACKs, register, repeated START, STOP)")
print("")
print(pad("chip", 10) + pad("mode", 8) + pad("ODR Hz", 8) + pad("sets", 6) + pad("trans.", 8) + pad("trans/set", 11)
      + pad("bits/set", 10) + pad("max sets/s @100k", 18) + "max sets/s @400k")
for r in rows {
    print(pad(r.chip, 10) + pad(r.mode, 8) + pad(fmt(r.rateHz), 8) + pad(String(r.sets), 6) + pad(String(r.transactions), 8)
          + pad(fmt(r.perSet, 3), 11) + pad(fmt(r.bitsPerSet), 10) + pad(fmt(r.ceiling(100_000), 0), 18) + fmt(r.ceiling(400_000), 0))
}
let direct = rows.filter { $0.mode == "direct" }
let fifo = rows.filter { $0.mode == "fifo" }
let imuFIFO = fifo.filter { imus.contains($0.chip) }
let imuDirect = direct.filter { imus.contains($0.chip) && imuFIFO.map(\.chip).contains($0.chip) }
print("figure: I²C bus bits per IMU sample set through the FIFO (median over chips) = "
      + fmt(imuFIFO.map(\.bitsPerSet).sorted()[imuFIFO.count / 2], 0)
      + " | anchor: the same chips read directly = " + fmt(imuDirect.map(\.bitsPerSet).sorted()[imuDirect.count / 2], 0))
print("")
print("summary: direct reads: \(fmt(direct.map(\.perSet).max() ?? 0, 3)) transaction(s) per sample set at most; "
      + "FIFO: \(fmt(fifo.filter { !["adxl345", "lis3dh", "lsm9ds1", "lps25h", "dps310"].contains($0.chip) }.map(\.perSet).max() ?? 0, 3)) per sample set at most "
      + "(2 per batch; the ADXL345 and LIS3DH pop one entry per burst, the LSM9DS1 one set per gyro + accel burst pair, "
      + "the LPS25H adds a TEMP_OUT read (3 per batch), the DPS310 pops one result per read (results + 2 per batch))")
