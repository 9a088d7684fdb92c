/// One end of a reliable, ordered stream of payloads over a path that loses, delays, duplicates
/// and reorders frames (pure state machine; no timers of its own).
///
/// Inputs are ``send(_:at:)`` (the application has a payload), ``receive(_:at:)`` (a frame
/// arrived from the other end) and ``tick(at:)`` (the clock reached ``nextDeadline``). Each returns
/// an ``Output``: frames to transmit, and payloads delivered to the application, in the order the
/// other end sent them, each exactly once.
///
///     var channel = ReliableChannel<[UInt8]>()
///     transmit(channel.send(bytes, at: now).frames)
///     let output = channel.receive(frame, at: now)     // deliver output.delivered, transmit output.frames
///     wake at channel.nextDeadline, then transmit(channel.tick(at: now).frames)
///
/// The mechanisms are TCP's, scaled down: sequence numbers per payload; cumulative and selective
/// acknowledgements (RFC 2018), piggybacked on data and otherwise delayed by
/// ``Configuration/acknowledgementDelay`` (immediately when something arrived out of order);
/// a retransmission timeout from smoothed round-trip samples (RFC 6298, Karn's rule) that doubles
/// on every retransmission of a frame up to ``Configuration/maximumRetransmissionTimeout``; and
/// time-based loss detection (RACK, RFC 8985): a frame sent before one that was acknowledged is
/// resent after a round trip and a reordering window, without waiting for its timeout. At most ``Configuration/sendWindow`` payloads are in flight; more wait in order.
///
/// It retries forever: a partition delays delivery until it heals (at most one maximum timeout
/// later) but never loses or reorders a payload. Whether the peer is gone is the session's call;
/// ``oldestUnacknowledgedSendTime`` tells how long it has been silent.
public struct ReliableChannel<Payload: Sendable>: Sendable {
    /// Tunables.
    public struct Configuration: Sendable, Hashable {
        /// The retransmission timeout before any round trip was measured (1 s, RFC 6298 §2.1).
        public var initialRetransmissionTimeout: Duration = .seconds(1)
        /// The smallest retransmission timeout (200 ms, as Linux TCP).
        public var minimumRetransmissionTimeout: Duration = .milliseconds(200)
        /// The largest, after backing off (3 s): also the longest a healed partition waits.
        public var maximumRetransmissionTimeout: Duration = .seconds(3)
        /// How long an in-order arrival waits for data to carry its acknowledgement (10 ms).
        public var acknowledgementDelay: Duration = .milliseconds(10)
        /// The most payloads sent and not yet acknowledged (128).
        public var sendWindow = 128
        /// The most selective blocks in one acknowledgement (8, the lowest).
        public var maximumSelectiveBlocks = 8

        /// The defaults.
        @inlinable public init() {}
    }

    /// What an input asks of the caller.
    public struct Output: Sendable {
        /// Frames to put on the wire to the other end, in this order.
        public var frames: [ReliableFrame<Payload>] = []
        /// Payloads from the other end, in its sending order, each once.
        public var delivered: [Payload] = []

        /// Nothing to do.
        @inlinable public init() {}
    }

    /// Counters for tests and diagnostics.
    public struct Statistics: Sendable, Hashable {
        /// Payloads transmitted for the first time.
        public var segmentsSent = 0
        /// Payloads transmitted again (timeouts and detected losses).
        public var segmentsRetransmitted = 0
        /// Retransmissions caused by a timeout rather than by an acknowledgement.
        public var timeouts = 0
        /// Frames carrying only an acknowledgement.
        public var pureAcknowledgementsSent = 0
        /// Payloads delivered to the application.
        public var payloadsDelivered = 0
        /// Arriving payloads dropped because they had already arrived.
        public var duplicatesDropped = 0
    }

    @usableFromInline struct InFlight: Sendable {
        @usableFromInline var payload: Payload
        @usableFromInline var lastSentAt: Duration
        @usableFromInline var retransmitAt: Duration
        @usableFromInline var transmissions: Int
        @usableFromInline var isSelectivelyAcknowledged = false

        @inlinable init(payload: Payload, lastSentAt: Duration, retransmitAt: Duration, transmissions: Int) {
            self.payload = payload
            self.lastSentAt = lastSentAt
            self.retransmitAt = retransmitAt
            self.transmissions = transmissions
        }
    }

    /// The tunables in use.
    public let configuration: Configuration
    /// Counters since the channel was made.
    public var statistics: Statistics { counters }
    @usableFromInline var counters = Statistics()

    // Sending.
    @usableFromInline var nextSequenceNumber: UInt64 = 0
    /// Sequence numbers `sendBase ..< nextSequenceNumber`, at `inFlight[inFlightHead...]`.
    @usableFromInline var inFlight: [InFlight] = []
    @usableFromInline var inFlightHead = 0
    @usableFromInline var sendBase: UInt64 = 0
    @usableFromInline var backlog: [Payload] = []
    @usableFromInline var backlogHead = 0
    @usableFromInline var smoothedRoundTrip: Duration?
    @usableFromInline var roundTripVariation: Duration = .zero
    @usableFromInline var minimumRoundTrip: Duration?
    @usableFromInline var retransmissionTimeout: Duration
    /// RACK: the latest send time of a frame known to have arrived, and that frame's round trip.
    @usableFromInline var rackSentAt: Duration?
    @usableFromInline var rackSequenceNumber: UInt64 = 0
    @usableFromInline var rackRoundTrip: Duration = .zero

    // Receiving.
    @usableFromInline var nextExpected: UInt64 = 0
    @usableFromInline var outOfOrder: [UInt64: Payload] = [:]
    @usableFromInline var acknowledgementDeadline: Duration?
    @usableFromInline var unacknowledgedArrivals = 0

    /// A channel with nothing sent or received.
    @inlinable public init(configuration: Configuration = Configuration()) {
        precondition(configuration.sendWindow > 0 && configuration.maximumSelectiveBlocks >= 0)
        self.configuration = configuration
        retransmissionTimeout = configuration.initialRetransmissionTimeout
    }

    /// When ``tick(at:)`` is next needed: a retransmission or a delayed acknowledgement is due.
    /// `nil` when nothing waits. Complexity: O(frames in flight).
    public var nextDeadline: Duration? {
        get {
            var deadline = acknowledgementDeadline
            for index in inFlightHead..<inFlight.count where !inFlight[index].isSelectivelyAcknowledged {
                let due = inFlight[index].retransmitAt
                if deadline.map({ due < $0 }) ?? true { deadline = due }
            }
            return deadline
        }
    }

    /// Payloads sent and not yet acknowledged, plus those waiting for the window.
    public var unacknowledgedCount: Int { (inFlight.count - inFlightHead) + (backlog.count - backlogHead) }

    /// When the oldest unacknowledged payload was last transmitted; `nil` when all are acknowledged.
    public var oldestUnacknowledgedSendTime: Duration? {
        inFlightHead < inFlight.count ? inFlight[inFlightHead].lastSentAt : nil
    }

    /// The smoothed round trip measured so far (RFC 6298 SRTT); `nil` before the first sample.
    public var smoothedRoundTripTime: Duration? { smoothedRoundTrip }

    /// Sends `payload` after everything sent before it. Transmits at once when the window allows.
    @inlinable public mutating func send(_ payload: Payload, at now: Duration) -> Output {
        var output = Output()
        if backlogHead == backlog.count, inFlight.count - inFlightHead < configuration.sendWindow {
            transmitNew(payload, at: now, into: &output)
        } else {
            backlog.append(payload)
        }
        return output
    }

    /// Takes a frame from the other end: delivers what is now in order, processes its
    /// acknowledgement (which may free the window or reveal losses), and acknowledges.
    @inlinable public mutating func receive(_ frame: ReliableFrame<Payload>, at now: Duration) -> Output {
        var output = Output()
        var acknowledgeNow = false
        if let segment = frame.segment {
            acknowledgeNow = accept(segment, at: now, into: &output)
        }
        process(frame.acknowledgement, at: now, into: &output)
        transmitBacklog(at: now, into: &output)
        if output.frames.isEmpty, acknowledgeNow || acknowledgementDeadline.map({ $0 <= now }) == true {
            transmitAcknowledgement(into: &output)
        }
        return output
    }

    /// Does what is due at `now`: retransmits frames whose timeout passed, sends a delayed
    /// acknowledgement.
    @inlinable public mutating func tick(at now: Duration) -> Output {
        var output = Output()
        for index in inFlightHead..<inFlight.count where !inFlight[index].isSelectivelyAcknowledged && inFlight[index].retransmitAt <= now {
            if inFlight[index].retransmitAt == inFlight[index].lastSentAt + backedOffTimeout(inFlight[index].transmissions) {
                counters.timeouts += 1
            }
            retransmit(at: index, now: now, into: &output)
        }
        if output.frames.isEmpty, let deadline = acknowledgementDeadline, deadline <= now {
            transmitAcknowledgement(into: &output)
        }
        return output
    }

    // MARK: Receiving

    /// Returns whether the acknowledgement should go out at once.
    @inlinable mutating func accept(_ segment: ReliableFrame<Payload>.Segment, at now: Duration, into output: inout Output) -> Bool {
        let sequenceNumber = segment.sequenceNumber
        if sequenceNumber < nextExpected || outOfOrder[sequenceNumber] != nil {
            counters.duplicatesDropped += 1
            return true  // the sender missed our acknowledgement
        }
        if sequenceNumber > nextExpected {
            // Bounded by the sender's window; anything far beyond it is not from a correct peer.
            guard sequenceNumber - nextExpected <= UInt64(configuration.sendWindow) * 4 else { return true }
            outOfOrder[sequenceNumber] = segment.payload
            return true
        }
        output.delivered.append(segment.payload)
        nextExpected += 1
        let filledHole = !outOfOrder.isEmpty
        while let next = outOfOrder.removeValue(forKey: nextExpected) {
            output.delivered.append(next)
            nextExpected += 1
        }
        counters.payloadsDelivered += output.delivered.count
        unacknowledgedArrivals += 1
        if acknowledgementDeadline == nil { acknowledgementDeadline = now + configuration.acknowledgementDelay }
        return filledHole || unacknowledgedArrivals >= 2
    }

    @inlinable func currentAcknowledgement() -> ReliableAcknowledgement {
        guard !outOfOrder.isEmpty, configuration.maximumSelectiveBlocks > 0 else {
            return ReliableAcknowledgement(cumulative: nextExpected)
        }
        var blocks: [Range<UInt64>] = []
        for sequenceNumber in outOfOrder.keys.sorted() {
            if let last = blocks.last, last.upperBound == sequenceNumber {
                blocks[blocks.count - 1] = last.lowerBound..<(sequenceNumber + 1)
            } else {
                if blocks.count == configuration.maximumSelectiveBlocks { break }
                blocks.append(sequenceNumber..<(sequenceNumber + 1))
            }
        }
        return ReliableAcknowledgement(cumulative: nextExpected, selective: blocks)
    }

    @inlinable mutating func makeFrame(_ segment: ReliableFrame<Payload>.Segment?) -> ReliableFrame<Payload> {
        acknowledgementDeadline = nil
        unacknowledgedArrivals = 0
        return ReliableFrame(segment: segment, acknowledgement: currentAcknowledgement())
    }

    @inlinable mutating func transmitAcknowledgement(into output: inout Output) {
        counters.pureAcknowledgementsSent += 1
        output.frames.append(makeFrame(nil))
    }

    // MARK: Sending

    @inlinable func backedOffTimeout(_ transmissions: Int) -> Duration {
        var timeout = retransmissionTimeout
        for _ in 1..<max(1, transmissions) where timeout < configuration.maximumRetransmissionTimeout { timeout = timeout.scaled(2, 1) }
        return min(timeout, configuration.maximumRetransmissionTimeout)
    }

    @inlinable mutating func transmitNew(_ payload: Payload, at now: Duration, into output: inout Output) {
        if inFlightHead > 64, inFlightHead * 2 > inFlight.count {
            inFlight.removeFirst(inFlightHead)
            inFlightHead = 0
        }
        let sequenceNumber = nextSequenceNumber
        nextSequenceNumber += 1
        inFlight.append(InFlight(payload: payload, lastSentAt: now, retransmitAt: now + retransmissionTimeout, transmissions: 1))
        counters.segmentsSent += 1
        output.frames.append(makeFrame(.init(sequenceNumber: sequenceNumber, payload: payload)))
    }

    @inlinable mutating func transmitBacklog(at now: Duration, into output: inout Output) {
        while backlogHead < backlog.count, inFlight.count - inFlightHead < configuration.sendWindow {
            let payload = backlog[backlogHead]
            backlogHead += 1
            transmitNew(payload, at: now, into: &output)
        }
        if backlogHead == backlog.count, backlogHead > 0 {
            backlog.removeAll(keepingCapacity: true)
            backlogHead = 0
        }
    }

    @inlinable mutating func retransmit(at index: Int, now: Duration, into output: inout Output) {
        inFlight[index].transmissions += 1
        inFlight[index].lastSentAt = now
        inFlight[index].retransmitAt = now + backedOffTimeout(inFlight[index].transmissions)
        counters.segmentsRetransmitted += 1
        let sequenceNumber = sendBase + UInt64(index - inFlightHead)
        output.frames.append(makeFrame(.init(sequenceNumber: sequenceNumber, payload: inFlight[index].payload)))
    }

    @inlinable mutating func process(_ acknowledgement: ReliableAcknowledgement, at now: Duration, into output: inout Output) {
        var newestSample: (sentAt: Duration, sequenceNumber: UInt64, roundTrip: Duration, isRetransmission: Bool)?
        func delivered(_ frame: InFlight, _ sequenceNumber: UInt64) {
            let roundTrip = now - frame.lastSentAt
            if newestSample.map({ (frame.lastSentAt, sequenceNumber) > ($0.sentAt, $0.sequenceNumber) }) ?? true {
                newestSample = (frame.lastSentAt, sequenceNumber, roundTrip, frame.transmissions > 1)
            }
        }
        let cumulative = min(acknowledgement.cumulative, nextSequenceNumber)
        while sendBase < cumulative {
            let frame = inFlight[inFlightHead]
            if !frame.isSelectivelyAcknowledged { delivered(frame, sendBase) }
            inFlightHead += 1
            sendBase += 1
        }
        for block in acknowledgement.selective {
            let lower = max(block.lowerBound, sendBase)
            let upper = min(block.upperBound, nextSequenceNumber)
            guard lower < upper else { continue }
            for sequenceNumber in lower..<upper {
                let index = inFlightHead + Int(sequenceNumber - sendBase)
                guard !inFlight[index].isSelectivelyAcknowledged else { continue }
                inFlight[index].isSelectivelyAcknowledged = true
                delivered(inFlight[index], sequenceNumber)
            }
        }
        guard let sample = newestSample else { return }
        if !sample.isRetransmission {
            updateRoundTrip(with: sample.roundTrip)
        }
        // A retransmitted frame's acknowledgement may answer the first transmission: trust its send
        // time only when the answer took at least a minimum round trip (RFC 8985 §6.2).
        if !sample.isRetransmission || sample.roundTrip >= (minimumRoundTrip ?? .zero),
            rackSentAt.map({ (sample.sentAt, sample.sequenceNumber) > ($0, rackSequenceNumber) }) ?? true {
            rackSentAt = sample.sentAt
            rackSequenceNumber = sample.sequenceNumber
            rackRoundTrip = sample.roundTrip
        }
        detectLosses(at: now, into: &output)
    }

    /// RACK: a frame sent before a delivered one is lost once a round trip plus a reordering
    /// window has passed since it was sent; until then its timer is brought forward to that moment.
    /// The window is a quarter of the minimum round trip (RFC 8985 §6.2) plus twice the round-trip
    /// variation, so that jitter alone does not look like loss.
    @inlinable mutating func detectLosses(at now: Duration, into output: inout Output) {
        guard let rackSentAt else { return }
        let reorderingWindow = (minimumRoundTrip ?? .zero).scaled(1, 4) + roundTripVariation.scaled(2, 1)
        for index in inFlightHead..<inFlight.count where !inFlight[index].isSelectivelyAcknowledged {
            let sequenceNumber = sendBase + UInt64(index - inFlightHead)
            guard (inFlight[index].lastSentAt, sequenceNumber) < (rackSentAt, rackSequenceNumber) else { continue }
            let lostAt = inFlight[index].lastSentAt + rackRoundTrip + reorderingWindow
            if lostAt <= now {
                retransmit(at: index, now: now, into: &output)
            } else if lostAt < inFlight[index].retransmitAt {
                inFlight[index].retransmitAt = lostAt
            }
        }
    }

    /// RFC 6298 §2: SRTT, RTTVAR and RTO from one sample.
    @inlinable mutating func updateRoundTrip(with sample: Duration) {
        minimumRoundTrip = min(minimumRoundTrip ?? sample, sample)
        if let smoothed = smoothedRoundTrip {
            let deviation = smoothed > sample ? smoothed - sample : sample - smoothed
            roundTripVariation = roundTripVariation.scaled(3, 4) + deviation.scaled(1, 4)
            smoothedRoundTrip = smoothed.scaled(7, 8) + sample.scaled(1, 8)
        } else {
            smoothedRoundTrip = sample
            roundTripVariation = sample.scaled(1, 2)
        }
        let timeout = smoothedRoundTrip! + max(.milliseconds(1), roundTripVariation.scaled(4, 1))
        retransmissionTimeout = min(configuration.maximumRetransmissionTimeout, max(configuration.minimumRetransmissionTimeout, timeout))
    }
}
