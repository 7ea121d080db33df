/// Sample sources: I²C chips (Bus/, Chips/), kernel IIO devices (IIO/), replay and simulation (Source/).
@_exported import IMUCore
