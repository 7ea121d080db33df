/// The check every barometer reading passes before its pressure reaches a sample, on I²C
/// (`I2CPoller`) and IIO (`IIOPolledReader`) alike: pressure within `RecordingLimits.pressure`,
/// 250–1300 hPa, and the temperature read with it within `RecordingLimits.temperature`.
///
/// Why those bounds: they are the widest datasheet range of the barometers IMUKit reads, ST's
/// LPS22HB and LPS25H at 260–1260 hPa (the LPS22HB datasheet DocID027083 is titled "260-1260 hPa absolute digital output barometer"; BMP280 300–1100, BMP388 300–1250,
/// DPS310 300–1200 hPa), widened, so a reading a chip makes a little beyond its own range (a
/// deep mine) still counts; and they are what a recording may hold, so a live run and the replay
/// of its recording see the same pressures. A reading outside them is no air pressure: output
/// registers read while the chip updates them (reported for the LPS22HB on ST's forum; block
/// data update, which the drivers set, is meant to prevent it), a conversion on a failing
/// sensor, or a kernel driver's glitch. A temperature outside its bounds drops the pressure
/// too: the chips compensate pressure with it.
///
/// Such a reading is left out, counted (`SampleLosses.outOfRangePressure`, which the tools
/// report), never thrown (one glitch must not reconfigure the chip or lose the sensor) and never
/// passed on as a zero or a 16 hPa (130 m) step that floor counting would take for a climb.
enum BarometerRange {
    /// True when the pressure (hPa) and the temperature read with it (°C, nil when none) may
    /// reach a sample. NaN is outside.
    static func accepts(pressure hPa: Double, temperature celsius: Double?) -> Bool {
        RecordingLimits.pressure.contains(hPa) && (celsius.map { RecordingLimits.temperature.contains($0) } ?? true)
    }

    /// The readings of one read (a chip's batch, or one IIO value) that may reach a sample. The
    /// others are counted in `losses`; at the first one a source leaves out (its count was 0), `warn`
    /// gets `warning` naming `chip`, so a barometer that keeps reading nonsense (floors never
    /// count) is said at once, not only in the end count. `temperature` nil: the pressure alone.
    static func screen<Reading>(_ readings: [Reading], pressure: (Reading) -> Double?, temperature: (Reading) -> Double?,
                                chip: @autoclosure () -> String, losses: LossCounter, warn: (String) -> Void) -> [Reading] {
        var usable: [Reading] = []
        usable.reserveCapacity(readings.count)
        var firstLeftOut: Double??
        for r in readings {
            if accepts(pressure: pressure(r) ?? .nan, temperature: temperature(r)) {
                usable.append(r)
            } else if firstLeftOut == nil {
                firstLeftOut = .some(pressure(r))
            }
        }
        guard let first = firstLeftOut else { return usable }
        if losses.snapshot.outOfRangePressure == 0 { warn(warning(first, chip: chip())) }
        losses.add(outOfRangePressure: readings.count - usable.count)
        return usable
    }

    /// The warning given once per source at the first reading left out.
    static func warning(_ hPa: Double?, chip: String) -> String {
        let p = RecordingLimits.pressure
        return "\(chip): pressure \(hPa.map { String($0) } ?? "none") hPa is outside \(Int(p.lowerBound))–\(Int(p.upperBound)) hPa: "
            + "left out (read mid-update, or a failing sensor); further ones are only counted"
    }
}
