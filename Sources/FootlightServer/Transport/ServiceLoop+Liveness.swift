import CLibWebSockets
import Footlight
import Logging

/// When a server loop pings a silent WebSocket peer, and when it gives up on one.
struct LivenessPolicy: Sendable {
    /// Silence (no frame, no pong) before a ping.
    var pingAfter: Duration
    /// Silence before hanging up; longer than ``pingAfter``.
    var hangUpAfter: Duration
    /// Where hang-ups are logged.
    var logger: Logger

    /// How often the loop looks at its connections: every second, or more often when
    /// the policy's times are that short.
    var sweepInterval: Duration { min(.seconds(1), pingAfter / 2) }
}

extension ServiceLoop {
    /// Starts checking this server loop's WebSocket connections: one sweep each
    /// ``LivenessPolicy/sweepInterval`` pings the peers silent for
    /// ``LivenessPolicy/pingAfter`` and hangs up on those silent for
    /// ``LivenessPolicy/hangUpAfter`` whose ping was asked for at least the difference
    /// of the two ago (a late sweep never hangs up on an unpinged peer). A sweep costs one pass over the loop's
    /// connections, where libwebsockets' own checks cost a walk of a sorted list for every
    /// ping and pong (see ``ContextResources``).
    func startLivenessChecks(_ policy: LivenessPolicy) {
        execute { [self] in
            guard let context else { return }
            let timer = LivenessTimer(policy: policy, loop: self)
            liveness = timer
            timer.schedule(on: context)
        }
    }

    /// Called by the loop's timer, on the loop thread inside `lws_service`.
    fileprivate func sweepConnections() {
        preconditionInLoop()
        guard let liveness, let context else { return }
        let policy = liveness.policy
        let now = ContinuousClock.now
        for connection in openConnections {
            let silent = now - connection.lastHeard
            // Never without a ping first, given the time between the two to answer: a
            // sweep that came late (a busy loop) must not skip the ping.
            if silent >= policy.hangUpAfter, let asked = connection.pingAskedAt,
                now - asked >= policy.hangUpAfter - policy.pingAfter
            {
                policy.logger.info(
                    "hanging up WebSocket connection \(connection.id): nothing heard for \(silent.components.seconds) s, not even a pong"
                )
                connection.hangUp()
            } else if silent >= policy.pingAfter {
                connection.pingIfNotPinged()
            }
        }
        liveness.schedule(on: context)
    }
}

/// A loop's liveness policy and the libwebsockets timer that runs its sweeps. The loop
/// releases it only after destroying the context, whose scheduler list links the timer.
final class LivenessTimer {
    let policy: LivenessPolicy
    private let timer: UnsafeMutablePointer<footlight_timer>

    init(policy: LivenessPolicy, loop: ServiceLoop) {
        self.policy = policy
        timer = .allocate(capacity: 1)
        timer.initialize(to: footlight_timer())
        timer.pointee.owner = Unmanaged.passUnretained(loop).toOpaque()
    }

    /// Sets the next sweep one ``LivenessPolicy/sweepInterval`` from now.
    func schedule(on context: OpaquePointer) {
        let entry = UnsafeMutableRawPointer(timer).assumingMemoryBound(to: lws_sorted_usec_list_t.self)
        lws_sul_schedule(
            context, 0, entry, livenessTimerFired, lws_usec_t(policy.sweepInterval.clampedNanoseconds / 1000))
    }

    deinit {
        timer.deinitialize(count: 1)
        timer.deallocate()
    }
}

/// The sweep timer's callback: finds the loop through the timer's owner pointer.
private func livenessTimerFired(_ entry: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let entry else { return }
    let timer = UnsafeMutableRawPointer(entry).assumingMemoryBound(to: footlight_timer.self)
    guard let owner = timer.pointee.owner else { return }
    Unmanaged<ServiceLoop>.fromOpaque(owner).takeUnretainedValue().sweepConnections()
}
