import BenchSupport

/// The CPU seconds the server and the clients used in one phase.
struct PhaseCPU: Sendable {
    let server: Double
    let clients: Double

    /// Starts counting: call `finish` at the phase's end.
    struct Start {
        let pid: Int32
        let server: Double?
        let clients: Double?

        init(serverPID: Int32) {
            pid = serverPID
            server = CPUTime.seconds(pid: serverPID)
            clients = CPUTime.ownSeconds
        }

        /// What each used since the start; nil when either could not be read.
        func finish() -> PhaseCPU? {
            guard let server, let clients, let serverNow = CPUTime.seconds(pid: pid),
                let clientsNow = CPUTime.ownSeconds
            else { return nil }
            return PhaseCPU(server: serverNow - server, clients: clientsNow - clients)
        }
    }
}
