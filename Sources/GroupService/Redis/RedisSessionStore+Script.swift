extension RedisSessionStore {
    /// The one way anything is written: a Lua script that Redis runs atomically. It checks every
    /// session the batch names against the version (and existence, and end) that the store read
    /// before it, and every command id against those kept; only when all hold does it write
    /// anything: the events into each session's stream with their version as the entry id
    /// (`0-VERSION`), the retained events and command ids, the new version, the trimmed log, the
    /// participants, the ends and revocations, and then it publishes each session's doorbell (the
    /// change itself). A check that fails writes nothing and returns `INTERLUDE CONFLICT i` (the
    /// store reads again and checks again) or `INTERLUDE DUPCMD i e`.
    ///
    /// KEYS: the sessions set, the revocations hash, then five per session (record, log,
    /// retained, commands, participants). ARGV: events kept per session, the session count; per
    /// session its id, `1` when new, stream, creation time, the expected version (empty: any), the end it is
    /// created with (or empty), the end to record (or empty), event and participant counts, the
    /// doorbell (published after the session's version and a colon) and its channel; per event its version, `k`+retain key or empty, `c`+command key
    /// or empty, and its fields; per participant its id and fields; then the revocation count,
    /// token id and expiry pairs, and the expiry before which revocations are forgotten (or empty).
    static let commitScript = #"""
    local kept = tonumber(ARGV[1])
    local count = tonumber(ARGV[2])
    local cursor = 3
    local function take() local value = ARGV[cursor]; cursor = cursor + 1; return value end
    local sessions = {}
    for i = 1, count do
      local base = 2 + (i - 1) * 5
      local s = {key = KEYS[base + 1], log = KEYS[base + 2], retained = KEYS[base + 3], commands = KEYS[base + 4], participantsKey = KEYS[base + 5]}
      s.id = take(); s.isNew = take() == '1'; s.stream = take(); s.createdAt = take(); s.expected = take()
      s.createdEnded = take(); s.endAt = take()
      local events = tonumber(take()); local participants = tonumber(take())
      s.bell = take(); s.channel = take()
      s.events = {}
      for e = 1, events do s.events[e] = {version = take(), retainKey = take(), command = take(), fields = take()} end
      s.participants = {}
      for p = 1, participants do s.participants[p] = {id = take(), fields = take()} end
      sessions[i] = s
    end
    for i, s in ipairs(sessions) do
      local exists = redis.call('EXISTS', s.key) == 1
      if s.isNew then
        if exists then return redis.error_reply('INTERLUDE CONFLICT ' .. i) end
      else
        if not exists then return redis.error_reply('INTERLUDE CONFLICT ' .. i) end
        if s.expected ~= '' and redis.call('HGET', s.key, 'version') ~= s.expected then return redis.error_reply('INTERLUDE CONFLICT ' .. i) end
        if #s.events > 0 and redis.call('HEXISTS', s.key, 'endedAt') == 1 then return redis.error_reply('INTERLUDE CONFLICT ' .. i) end
        for e, event in ipairs(s.events) do
          if event.command ~= '' and redis.call('HEXISTS', s.commands, string.sub(event.command, 2)) == 1 then
            return redis.error_reply('INTERLUDE DUPCMD ' .. i .. ' ' .. e)
          end
        end
      end
    end
    for _, s in ipairs(sessions) do
      if s.isNew then
        redis.call('HSET', s.key, 'id', s.id, 'stream', s.stream, 'createdAt', s.createdAt, 'version', s.expected)
        if s.createdEnded ~= '' then
          redis.call('HSET', s.key, 'endedAt', s.createdEnded)
        else
          redis.call('ZADD', KEYS[1], s.createdAt, s.id)
        end
      end
      local last = nil
      local trimmedBelow = tonumber(redis.call('HGET', s.key, 'trimmedBelow') or '0')
      for _, event in ipairs(s.events) do
        local entry = {'f', event.fields}
        local command = ''
        if event.command ~= '' then
          command = string.sub(event.command, 2)
          redis.call('HSET', s.commands, command, event.version)
          entry[#entry + 1] = 'c'; entry[#entry + 1] = command
        end
        if event.retainKey ~= '' then
          local key = string.sub(event.retainKey, 2)
          local old = redis.call('HGET', s.retained, key)
          if old then
            -- A retained event that the log no longer holds is gone once it is replaced.
            local version, length = string.match(old, '^(%d+):(%d+):')
            if tonumber(version) < trimmedBelow and tonumber(length) > 0 then
              local start = #version + #length + 3
              redis.call('HDEL', s.commands, string.sub(old, start, start + tonumber(length) - 1))
            end
          end
          redis.call('HSET', s.retained, key, event.version .. ':' .. #command .. ':' .. command .. event.fields)
          entry[#entry + 1] = 'r'; entry[#entry + 1] = key
        end
        redis.call('XADD', s.log, '0-' .. event.version, unpack(entry))
        last = event.version
      end
      if last then
        redis.call('HSET', s.key, 'version', last)
        local version = tonumber(last)
        if version > kept then
          local cutoff = version - kept + 1
          local dropped = redis.call('XRANGE', s.log, '-', '0-' .. (cutoff - 1))
          for _, entry in ipairs(dropped) do
            local fields = entry[2]
            local retainKey, command = nil, nil
            for j = 1, #fields, 2 do
              if fields[j] == 'r' then retainKey = fields[j + 1] elseif fields[j] == 'c' then command = fields[j + 1] end
            end
            if command then
              local held = false
              if retainKey then
                local current = redis.call('HGET', s.retained, retainKey)
                held = current ~= false and string.match(current, '^(%d+):') == string.match(entry[1], '^0%-(%d+)$')
              end
              if not held then redis.call('HDEL', s.commands, command) end
            end
          end
          if #dropped > 0 then redis.call('XTRIM', s.log, 'MINID', '0-' .. cutoff) end
          redis.call('HSET', s.key, 'trimmedBelow', cutoff)
        end
      end
      for _, participant in ipairs(s.participants) do redis.call('HSET', s.participantsKey, participant.id, participant.fields) end
      if s.endAt ~= '' and redis.call('HEXISTS', s.key, 'endedAt') == 0 then
        redis.call('HSET', s.key, 'endedAt', s.endAt)
        redis.call('ZREM', KEYS[1], s.id)
      end
    end
    local revocations = tonumber(take())
    for _ = 1, revocations do
      local token = take(); local expiry = tonumber(take())
      local current = redis.call('HGET', KEYS[2], token)
      if not current or tonumber(current) < expiry then redis.call('HSET', KEYS[2], token, expiry) end
    end
    local forget = take()
    if forget ~= '' then
      local all = redis.call('HGETALL', KEYS[2])
      for j = 1, #all, 2 do
        if tonumber(all[j + 1]) <= tonumber(forget) then redis.call('HDEL', KEYS[2], all[j]) end
      end
    end
    for _, s in ipairs(sessions) do
      if s.bell ~= '' then redis.call('PUBLISH', s.channel, redis.call('HGET', s.key, 'version') .. ':' .. s.bell) end
    end
    return 'OK'
    """#
}
