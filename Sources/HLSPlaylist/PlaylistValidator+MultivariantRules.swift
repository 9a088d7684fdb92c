// MARK: - The rules

extension PlaylistValidator.Rule {
    /// The Multivariant Playlist rules (§4.4.6).
    static let multivariantRules: [PlaylistValidator.Rule] = [
        renditionTypeUnknown, closedCaptionsURIForbidden, subtitlesURIRequired, instreamIDRequired, instreamIDInvalid,
        forcedNotSubtitles, audioAttributeNotAudio, defaultWithoutAutoselect, renditionNameDuplicate, multipleDefaults,
        stableIDCharacters, groupNotFound, closedCaptionsNoneInconsistent, codecsMissing, scoreMissing,
        iFrameStreamAttribute, sessionDataValueXorURI, sessionDataDuplicate, sessionKeyMethodNone, sessionKeyURIRequired,
        contentSteeringPathwayUnknown,
    ]

    static let renditionTypeUnknown = PlaylistValidator.Rule(
        id: "multivariant.rendition-type-unknown", severity: .error,
        summary: "EXT-X-MEDIA TYPE is AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS", specSection: "RFC 8216bis §4.4.6.1"
    )
    static let closedCaptionsURIForbidden = PlaylistValidator.Rule(
        id: "multivariant.closed-captions-uri-forbidden", severity: .error,
        summary: "an EXT-X-MEDIA of TYPE=CLOSED-CAPTIONS has no URI", specSection: "RFC 8216bis §4.4.6.1, §4.4.6.2.1"
    )
    static let subtitlesURIRequired = PlaylistValidator.Rule(
        id: "multivariant.subtitles-uri-required", severity: .error,
        summary: "an EXT-X-MEDIA of TYPE=SUBTITLES has a URI", specSection: "RFC 8216bis §4.4.6.2.1"
    )
    static let instreamIDRequired = PlaylistValidator.Rule(
        id: "multivariant.instream-id-required", severity: .error,
        summary: "an EXT-X-MEDIA of TYPE=CLOSED-CAPTIONS has an INSTREAM-ID", specSection: "RFC 8216bis §4.4.6.1"
    )
    static let instreamIDInvalid = PlaylistValidator.Rule(
        id: "multivariant.instream-id-invalid", severity: .error,
        summary: "INSTREAM-ID is CC1-CC4 or SERVICE1-SERVICE63 for closed captions, [A-Za-z0-9.] otherwise",
        specSection: "RFC 8216bis §4.4.6.1"
    )
    static let forcedNotSubtitles = PlaylistValidator.Rule(
        id: "multivariant.forced-not-subtitles", severity: .error,
        summary: "only TYPE=SUBTITLES renditions have FORCED", specSection: "RFC 8216bis §4.4.6.1"
    )
    static let audioAttributeNotAudio = PlaylistValidator.Rule(
        id: "multivariant.audio-attribute-not-audio", severity: .error,
        summary: "only TYPE=AUDIO renditions have BIT-DEPTH, SAMPLE-RATE and CHANNELS", specSection: "RFC 8216bis §4.4.6.1"
    )
    static let defaultWithoutAutoselect = PlaylistValidator.Rule(
        id: "multivariant.default-without-autoselect", severity: .error,
        summary: "a DEFAULT=YES rendition does not have AUTOSELECT=NO", specSection: "RFC 8216bis §4.4.6.1"
    )
    static let renditionNameDuplicate = PlaylistValidator.Rule(
        id: "multivariant.rendition-name-duplicate", severity: .error,
        summary: "the renditions of a group have different NAMEs", specSection: "RFC 8216bis §4.4.6.1.1"
    )
    static let multipleDefaults = PlaylistValidator.Rule(
        id: "multivariant.multiple-defaults", severity: .error,
        summary: "a rendition group has at most one DEFAULT=YES member", specSection: "RFC 8216bis §4.4.6.1.1"
    )
    static let stableIDCharacters = PlaylistValidator.Rule(
        id: "multivariant.stable-id-characters", severity: .error,
        summary: "STABLE-VARIANT-ID and STABLE-RENDITION-ID use only a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_'",
        specSection: "RFC 8216bis §4.4.6.1, §4.4.6.2"
    )
    static let groupNotFound = PlaylistValidator.Rule(
        id: "multivariant.group-not-found", severity: .error,
        summary: "AUDIO, VIDEO, SUBTITLES and CLOSED-CAPTIONS name an EXT-X-MEDIA group of that TYPE",
        specSection: "RFC 8216bis §4.4.6.2"
    )
    static let closedCaptionsNoneInconsistent = PlaylistValidator.Rule(
        id: "multivariant.closed-captions-none-inconsistent", severity: .error,
        summary: "when one EXT-X-STREAM-INF has CLOSED-CAPTIONS=NONE, all have it", specSection: "RFC 8216bis §4.4.6.2"
    )
    static let codecsMissing = PlaylistValidator.Rule(
        id: "multivariant.codecs-missing", severity: .warning,
        summary: "every EXT-X-STREAM-INF has CODECS", specSection: "RFC 8216bis §4.4.6.2"
    )
    static let scoreMissing = PlaylistValidator.Rule(
        id: "multivariant.score-missing", severity: .warning,
        summary: "when one variant has SCORE, all variants have SCORE", specSection: "RFC 8216bis §4.4.6.2"
    )
    static let iFrameStreamAttribute = PlaylistValidator.Rule(
        id: "multivariant.i-frame-stream-attribute", severity: .warning,
        summary: "EXT-X-I-FRAME-STREAM-INF has no FRAME-RATE, AUDIO, SUBTITLES or CLOSED-CAPTIONS",
        specSection: "RFC 8216bis §4.4.6.3"
    )
    static let sessionDataValueXorURI = PlaylistValidator.Rule(
        id: "multivariant.session-data-value-xor-uri", severity: .error,
        summary: "EXT-X-SESSION-DATA has exactly one of VALUE and URI", specSection: "RFC 8216bis §4.4.6.4"
    )
    static let sessionDataDuplicate = PlaylistValidator.Rule(
        id: "multivariant.session-data-duplicate", severity: .error,
        summary: "no two EXT-X-SESSION-DATA tags share DATA-ID and LANGUAGE", specSection: "RFC 8216bis §4.4.6.4"
    )
    static let sessionKeyMethodNone = PlaylistValidator.Rule(
        id: "multivariant.session-key-method-none", severity: .error,
        summary: "EXT-X-SESSION-KEY METHOD is not NONE", specSection: "RFC 8216bis §4.4.6.5"
    )
    static let sessionKeyURIRequired = PlaylistValidator.Rule(
        id: "multivariant.session-key-uri-required", severity: .error,
        summary: "EXT-X-SESSION-KEY has a URI", specSection: "RFC 8216bis §4.4.4.4, §4.4.6.5"
    )
    static let contentSteeringPathwayUnknown = PlaylistValidator.Rule(
        id: "multivariant.content-steering-pathway-unknown", severity: .error,
        summary: "the PATHWAY-ID of EXT-X-CONTENT-STEERING is the PATHWAY-ID of a variant", specSection: "RFC 8216bis §4.4.6.6"
    )
}

// MARK: - The checks

/// The state of validating one Multivariant Playlist.
struct MultivariantContext {
    let playlist: MultivariantPlaylist
    var findings: Findings
    var requirements: [VersionRequirement] = []

    init(playlist: MultivariantPlaylist) {
        self.playlist = playlist
        self.findings = Findings(source: SourceText(playlist.source))
    }

    var source: SourceText? { findings.source }

    static let singletonTags = ["EXT-X-VERSION", "EXT-X-INDEPENDENT-SEGMENTS", "EXT-X-START", "EXT-X-CONTENT-STEERING"]
    static let renditionTypes: Set<String> = ["AUDIO", "VIDEO", "SUBTITLES", "CLOSED-CAPTIONS"]

    mutating func checkMultivariantRules() {
        findings.reportRepeats(of: Self.singletonTags)
        checkRenditions()
        checkVariants()
        checkIFrameStreams()
        checkSessionData()
        checkSessionKeys()
        checkContentSteering()
        requirements.append(
            contentsOf: PlaylistValidator.definitionRequirements(playlist.definitions, source: source, playlistLine: findings.playlistLine)
        )
        PlaylistValidator.reportVersion(playlist.version, requirements: requirements, into: &findings)
    }

    /// The line of element `index` of a list the parser recorded, when the lists line up.
    func line(_ index: Int, in recorded: [Int32]?, count: Int) -> Int? {
        guard let recorded, recorded.count == count, index < recorded.count else { return findings.playlistLine }
        return Int(recorded[index])
    }



    static func isLegalStableID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || [UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_")]
                .contains(byte)
        }
    }

    mutating func checkStableID(_ id: String?, attribute: String, line: Int?) {
        guard let id, !Self.isLegalStableID(id) else { return }
        findings.report(
            .stableIDCharacters, line: line, attribute: attribute,
            "\(attribute)=\"\(id)\" may contain only a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_'; replace the other characters"
        )
    }

    // MARK: Renditions

    static func isClosedCaptionChannel(_ id: String) -> Bool {
        if ["CC1", "CC2", "CC3", "CC4"].contains(id) { return true }
        guard id.hasPrefix("SERVICE"), let number = Int(id.dropFirst(7)), id.dropFirst(7).first != "0" else { return false }
        return (1...63).contains(number)
    }

    mutating func checkRenditions() {
        let renditions = playlist.renditions
        var names: [String: Int?] = [:]
        var defaults: [String: Int?] = [:]
        for (index, rendition) in renditions.enumerated() {
            let line = line(index, in: source?.positions.renditions, count: renditions.count)
            let name = PlaylistValidator.quoted(rendition.name)
            let type = rendition.type
            if !Self.renditionTypes.contains(type) {
                findings.report(
                    .renditionTypeUnknown, line: line, attribute: "TYPE",
                    "EXT-X-MEDIA NAME=\(name) has TYPE=\(type); use AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS"
                )
            }
            if type == "CLOSED-CAPTIONS" {
                if let uri = rendition.uri {
                    findings.report(
                        .closedCaptionsURIForbidden, line: line, attribute: "URI",
                        "closed-caption rendition \(name) has URI=\"\(uri)\"; closed captions travel in the video, so remove the URI"
                    )
                }
                if let instream = rendition.instreamID {
                    if !Self.isClosedCaptionChannel(instream) {
                        findings.report(
                            .instreamIDInvalid, line: line, attribute: "INSTREAM-ID",
                            "closed-caption rendition \(name) has INSTREAM-ID=\"\(instream)\"; use \"CC1\"…\"CC4\" or "
                                + "\"SERVICE1\"…\"SERVICE63\""
                        )
                    } else if instream.hasPrefix("SERVICE") {
                        requirements.add(7, "INSTREAM-ID=\"SERVICEn\"", line: line)
                    }
                } else {
                    findings.report(
                        .instreamIDRequired, line: line,
                        "closed-caption rendition \(name) has no INSTREAM-ID; add INSTREAM-ID=\"CC1\" (or the channel it uses)"
                    )
                }
            } else if let instream = rendition.instreamID {
                let legal = !instream.isEmpty && instream.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") }
                if !legal {
                    findings.report(
                        .instreamIDInvalid, line: line, attribute: "INSTREAM-ID",
                        "INSTREAM-ID=\"\(instream)\" of \(type) rendition \(name) may contain only A-Z, a-z, 0-9 and '.'"
                    )
                }
                requirements.add(13, "INSTREAM-ID in a TYPE=\(type) rendition", line: line)
            }
            if type == "SUBTITLES", rendition.uri == nil {
                findings.report(
                    .subtitlesURIRequired, line: line,
                    "subtitle rendition \(name) has no URI; add URI=\"<subtitle media playlist>\""
                )
            }
            if rendition.forced != nil, type != "SUBTITLES" {
                findings.report(
                    .forcedNotSubtitles, line: line, attribute: "FORCED",
                    "\(type) rendition \(name) has FORCED; only SUBTITLES renditions may, so remove it"
                )
            }
            if type != "AUDIO" {
                let audioOnly = [
                    rendition.bitDepth != nil ? "BIT-DEPTH" : nil, rendition.sampleRate != nil ? "SAMPLE-RATE" : nil,
                    rendition.channels != nil ? "CHANNELS" : nil,
                ].compactMap { $0 }
                if !audioOnly.isEmpty {
                    findings.report(
                        .audioAttributeNotAudio, line: line, attribute: audioOnly[0],
                        "\(type) rendition \(name) has \(audioOnly.joined(separator: ", ")); only AUDIO renditions may, so remove "
                            + (audioOnly.count == 1 ? "it" : "them")
                    )
                }
            }
            if rendition.isDefault == true, rendition.autoselect == false {
                findings.report(
                    .defaultWithoutAutoselect, line: line, attribute: "AUTOSELECT",
                    "rendition \(name) has DEFAULT=YES but AUTOSELECT=NO; a default rendition must be selectable, so write "
                        + "AUTOSELECT=YES"
                )
            }
            checkStableID(rendition.stableRenditionID, attribute: "STABLE-RENDITION-ID", line: line)
            let group = "\(type)\u{0}\(rendition.groupID)"
            let groupDescription = "\(type) group \(PlaylistValidator.quoted(rendition.groupID))"
            let nameKey = group + "\u{0}" + rendition.name
            if let first = names[nameKey] {
                findings.report(
                    .renditionNameDuplicate, line: line, attribute: "NAME",
                    "\(groupDescription) already has a rendition NAME=\(name)\(first.map { " (line \($0))" } ?? ""); "
                        + "give each rendition of a group its own NAME"
                )
            } else {
                names[nameKey] = line
            }
            if rendition.isDefault == true {
                if let first = defaults[group] {
                    findings.report(
                        .multipleDefaults, line: line, attribute: "DEFAULT",
                        "\(groupDescription) already has a DEFAULT=YES rendition\(first.map { " (line \($0))" } ?? ""); "
                            + "keep one default per group and set DEFAULT=NO on \(name)"
                    )
                } else {
                    defaults[group] = line
                }
            }
        }
    }

    // MARK: Variants

    func hasGroup(_ groupID: String, type: String) -> Bool {
        playlist.renditions.contains { $0.groupID == groupID && $0.type == type }
    }

    mutating func checkGroup(_ groupID: String?, type: String, attribute: String, tag: String, line: Int?) {
        guard let groupID, !hasGroup(groupID, type: type) else { return }
        let others = playlist.renditions.filter { $0.groupID == groupID }.map(\.type)
        let hint = others.isEmpty ? "" : " (GROUP-ID=\"\(groupID)\" is a TYPE=\(others[0]) group)"
        findings.report(
            .groupNotFound, line: line, attribute: attribute,
            "\(tag) \(attribute)=\"\(groupID)\" names no EXT-X-MEDIA with TYPE=\(type) and GROUP-ID=\"\(groupID)\"\(hint); "
                + "add that rendition group or fix the GROUP-ID"
        )
    }

    mutating func checkRequiredAttributes(_ stream: StreamAttributes, line: Int?) {
        if stream.requiredVideoLayout != nil || stream.otherAttributes.contains(where: { $0.name.hasPrefix("REQ-") }) {
            requirements.add(12, "an attribute whose name starts with REQ-", line: line)
        }
    }

    mutating func checkVariants() {
        let variants = playlist.variants
        let hasNone = variants.contains { $0.closedCaptions == VariantStream.ClosedCaptions.none }
        let hasScore = variants.contains { $0.stream.score != nil }
        for (index, variant) in variants.enumerated() {
            let line = line(index, in: source?.positions.variants, count: variants.count)
            let uri = PlaylistValidator.quoted(variant.uri)
            let tag = "EXT-X-STREAM-INF of \(uri)"
            checkGroup(variant.audio, type: "AUDIO", attribute: "AUDIO", tag: tag, line: line)
            checkGroup(variant.stream.video, type: "VIDEO", attribute: "VIDEO", tag: tag, line: line)
            checkGroup(variant.subtitles, type: "SUBTITLES", attribute: "SUBTITLES", tag: tag, line: line)
            if case .group(let group) = variant.closedCaptions {
                checkGroup(group, type: "CLOSED-CAPTIONS", attribute: "CLOSED-CAPTIONS", tag: tag, line: line)
            }
            if hasNone, variant.closedCaptions != VariantStream.ClosedCaptions.none {
                let found: String
                switch variant.closedCaptions {
                case .group(let group): found = "CLOSED-CAPTIONS=\"\(group)\""
                default: found = "no CLOSED-CAPTIONS"
                }
                findings.report(
                    .closedCaptionsNoneInconsistent, line: line,
                    "\(tag) has \(found) while another variant has CLOSED-CAPTIONS=NONE; when one variant says NONE, all must, "
                        + "so write CLOSED-CAPTIONS=NONE"
                )
            }
            if variant.stream.codecs == nil {
                findings.report(
                    .codecsMissing, line: line,
                    "\(tag) has no CODECS; add CODECS=\"…\" (for example \"avc1.64001f,mp4a.40.2\") so players can skip "
                        + "variants they cannot decode"
                )
            }
            if hasScore, variant.stream.score == nil {
                findings.report(
                    .scoreMissing, line: line,
                    "\(tag) has no SCORE while other variants do; give every variant a SCORE"
                )
            }
            checkStableID(variant.stream.stableVariantID, attribute: "STABLE-VARIANT-ID", line: line)
            checkRequiredAttributes(variant.stream, line: line)
        }
    }

    mutating func checkIFrameStreams() {
        let streams = playlist.iFrameStreams
        for (index, stream) in streams.enumerated() {
            let line = line(index, in: source?.positions.iFrameStreams, count: streams.count)
            let tag = "EXT-X-I-FRAME-STREAM-INF URI=\(PlaylistValidator.quoted(stream.uri))"
            checkGroup(stream.stream.video, type: "VIDEO", attribute: "VIDEO", tag: tag, line: line)
            let forbidden = stream.stream.otherAttributes.map(\.name).filter {
                ["FRAME-RATE", "AUDIO", "SUBTITLES", "CLOSED-CAPTIONS"].contains($0)
            }
            if !forbidden.isEmpty {
                findings.report(
                    .iFrameStreamAttribute, line: line, attribute: forbidden[0],
                    "\(tag) has \(forbidden.joined(separator: ", ")), which EXT-X-I-FRAME-STREAM-INF does not define; remove "
                        + (forbidden.count == 1 ? "it" : "them")
                )
            }
            checkStableID(stream.stream.stableVariantID, attribute: "STABLE-VARIANT-ID", line: line)
            checkRequiredAttributes(stream.stream, line: line)
        }
    }

    // MARK: Session data and keys

    mutating func checkSessionData() {
        let items = playlist.sessionData
        var seen: [String: Int?] = [:]
        for (index, item) in items.enumerated() {
            let line = line(index, in: source?.positions.sessionData, count: items.count)
            let id = PlaylistValidator.quoted(item.dataID)
            if (item.value == nil) == (item.uri == nil) {
                findings.report(
                    .sessionDataValueXorURI, line: line,
                    "EXT-X-SESSION-DATA DATA-ID=\(id) has "
                        + (item.value == nil ? "neither VALUE nor URI; add one of them" : "both VALUE and URI; keep one of them")
                )
            }
            let key = item.dataID + "\u{0}" + (item.language ?? "")
            if let first = seen[key] {
                let language = item.language.map { "LANGUAGE=\"\($0)\"" } ?? "no LANGUAGE"
                findings.report(
                    .sessionDataDuplicate, line: line, attribute: "DATA-ID",
                    "EXT-X-SESSION-DATA DATA-ID=\(id) with \(language) appears again\(first.map { " (first on line \($0))" } ?? ""); "
                        + "remove the repeat or give it another LANGUAGE"
                )
            } else {
                seen[key] = line
            }
        }
    }

    mutating func checkSessionKeys() {
        let keys = playlist.sessionKeys
        let keyLines = source?.lines(ofTag: "EXT-X-SESSION-KEY")
        for (index, key) in keys.enumerated() {
            let line = line(index, in: keyLines.map { $0.map { Int32($0) } }, count: keys.count)
            if key.method == .none {
                findings.report(
                    .sessionKeyMethodNone, line: line, attribute: "METHOD",
                    "EXT-X-SESSION-KEY has METHOD=NONE; a session key announces a key to preload, so remove the tag"
                )
            } else if key.uri == nil {
                findings.report(
                    .sessionKeyURIRequired, line: line, attribute: "METHOD",
                    "EXT-X-SESSION-KEY:METHOD=\(key.method) has no URI; add the URI of the key the media playlists use"
                )
            }
        }
    }

    mutating func checkContentSteering() {
        guard let steering = playlist.contentSteering, let pathway = steering.pathwayID else { return }
        let pathways = Set(playlist.variants.map { $0.stream.pathwayID ?? "." } + playlist.iFrameStreams.map { $0.stream.pathwayID ?? "." })
        guard !pathways.contains(pathway) else { return }
        let line = source?.occurrences(of: "EXT-X-CONTENT-STEERING").first ?? findings.playlistLine
        findings.report(
            .contentSteeringPathwayUnknown, line: line, attribute: "PATHWAY-ID",
            "EXT-X-CONTENT-STEERING PATHWAY-ID=\"\(pathway)\" is not the PATHWAY-ID of any variant "
                + "(they use \(pathways.sorted().map(PlaylistValidator.quoted).joined(separator: ", "))); name one of those"
        )
    }
}
