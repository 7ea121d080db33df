import IMUSensors

/// The hardware backends tools search, in order (I²C chips first, then kernel IIO devices).
public enum CLIBackends {
    public static var hardware: [any SensorBackend] { [] }
}
