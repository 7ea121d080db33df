/// A snapshot of one IIO device as libiio shows it, with the attribute values discovery needs.
/// Built from a live context (`IIOContext.describe()`) or by hand in tests.
///
/// libiio folds the kernel's sysfs names into channels: `in_accel_scale` (shared by type) and
/// `in_accel_x_scale` both appear as the attribute `scale` of channel `accel_x`;
/// `in_accel_mount_matrix` appears as `mount_matrix` of every accel channel; `in_mount_matrix`
/// (shared by direction) appears as attribute `matrix` of a pseudo-channel `mount`; a plain
/// `mount_matrix` is a device attribute.
public struct IIODeviceDescription: Sendable, Equatable {
    public struct Channel: Sendable, Equatable {
        /// libiio channel id: "accel_x", "anglvel_z", "pressure", "temp", "timestamp", "mount".
        public var id: String
        public var isOutput: Bool
        /// Attribute names, and the values read for the ones discovery uses (scale, offset, matrix).
        public var attributes: [String: String]
        /// Scan index and type when the channel is a scan element (buffer capable).
        public var scanIndex: Int?
        public var scanType: IIOScanType?

        public init(id: String, isOutput: Bool = false, attributes: [String: String] = [:],
                    scanIndex: Int? = nil, scanType: IIOScanType? = nil) {
            self.id = id
            self.isOutput = isOutput
            self.attributes = attributes
            self.scanIndex = scanIndex
            self.scanType = scanType
        }
    }

    /// "iio:device2".
    public var id: String
    /// The driver's name for it, e.g. "mpu6050", "lsm6dsl_accel".
    public var name: String
    /// Device attribute names with values for the ones discovery reads
    /// (mount_matrix, sampling_frequency, current_timestamp_clock).
    public var attributes: [String: String]
    public var channels: [Channel]
    /// True when the device has a buffer (scan elements and /dev/iio:deviceN).
    public var bufferCapable: Bool
    /// The device's current trigger, if one is set.
    public var currentTrigger: String?
    /// True for trigger devices ("trigger0: imukit-tick").
    public var isTrigger: Bool

    public init(id: String, name: String, attributes: [String: String] = [:], channels: [Channel] = [],
                bufferCapable: Bool = false, currentTrigger: String? = nil, isTrigger: Bool = false) {
        self.id = id
        self.name = name
        self.attributes = attributes
        self.channels = channels
        self.bufferCapable = bufferCapable
        self.currentTrigger = currentTrigger
        self.isTrigger = isTrigger
    }

    public func channel(_ id: String) -> Channel? { channels.first { $0.id == id && !$0.isOutput } }

    /// Attributes whose values discovery needs; everything else is only listed by name.
    static let channelAttributesToRead = ["scale", "offset", "mount_matrix", "matrix"]
    static let deviceAttributesToRead = ["mount_matrix", "in_mount_matrix", "in_accel_mount_matrix",
                                         "in_anglvel_mount_matrix", "sampling_frequency", "current_timestamp_clock"]
}
