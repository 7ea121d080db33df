/// What a source lost (`SampleLosses`), on standard error, for every tool that reads a sensor.
/// Written whenever anything was lost: each figure is a count from the source, never assumed.
public enum LossReport {
    public static func write(_ losses: SampleLosses, tool: String) {
        guard losses.total > 0 || !losses.lostSensors.isEmpty || losses.outOfRangePressure > 0 else { return }
        let err = Terminal.standardError
        if losses.total > 0 { err.write("\(tool): samples \(losses.summary)\n") }
        if losses.outOfRangePressure > 0 {
            err.write("\(tool): \(SampleLosses.pressureNote(losses.outOfRangePressure)) (read mid-update, or a failing barometer): those samples have no pressure\n")
        }
        for sensor in losses.lostSensors { err.write("\(tool): lost \(sensor): what it measured stopped there, the rest went on\n") }
        err.flush()
    }
}
