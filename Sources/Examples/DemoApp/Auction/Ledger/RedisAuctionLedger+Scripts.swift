import FootlightRedis

extension RedisAuctionLedger {
    /// KEYS: the lot. ARGV: closesAt, listedFor, isClosed, bidCount, highCents,
    /// highBidder. Records a lot Redis does not have yet; returns its fields.
    static let openScript = RedisScript(
        """
        if redis.call('EXISTS', KEYS[1]) == 0 then
          redis.call('HSET', KEYS[1], 'closesAt', ARGV[1], 'listedFor', ARGV[2], 'round', 1, 'isClosed', ARGV[3],
            'bidCount', ARGV[4], 'highCents', ARGV[5], 'highBidder', ARGV[6], 'version', 1)
        end
        return redis.call('HGETALL', KEYS[1])
        """)

    /// KEYS: the lot, the bid counter, the lot's bids, the bidder's bids, the last bid's
    /// time. ARGV: lot id, amount, bidder, now, starting price, then the increment table
    /// (below, step, …, the step above the last band). Returns {"unknown"}, {"closed"},
    /// {"low", minimum} or {"ok", sequence, time, fields…}. Whether the lot is open is
    /// judged by `now` as given; the bid's time is that, or the last bid's when that is
    /// later (another node's clock ahead), so bid times never go backwards in sequence
    /// order; times are kept as the text given, never rounded.
    static let bidScript = RedisScript(
        """
        if redis.call('EXISTS', KEYS[1]) == 0 then return {'unknown'} end
        local lot = redis.call('HMGET', KEYS[1], 'closesAt', 'round', 'isClosed', 'bidCount', 'highCents')
        if lot[3] == '1' or tonumber(ARGV[4]) >= tonumber(lot[1]) then return {'closed'} end
        local at = ARGV[4]
        local last = redis.call('GET', KEYS[5])
        if last and tonumber(last) > tonumber(at) then at = last end
        local count, high, amount = tonumber(lot[4]), tonumber(lot[5]), tonumber(ARGV[2])
        local minimum = tonumber(ARGV[5])
        if count > 0 then
          local step = tonumber(ARGV[#ARGV])
          for i = 6, #ARGV - 1, 2 do
            if high < tonumber(ARGV[i]) then step = tonumber(ARGV[i + 1]) break end
          end
          minimum = high + step
        end
        if amount < minimum then return {'low', minimum} end
        local sequence = redis.call('INCR', KEYS[2])
        redis.call('SET', KEYS[5], at)
        redis.call('HSET', KEYS[1], 'bidCount', count + 1, 'highCents', ARGV[2], 'highBidder', ARGV[3])
        redis.call('HINCRBY', KEYS[1], 'version', 1)
        local bid = cjson.encode({seq = sequence, lot = ARGV[1], round = tonumber(lot[2]), bidder = ARGV[3],
          cents = amount, at = at})
        redis.call('RPUSH', KEYS[3], bid)
        redis.call('RPUSH', KEYS[4], bid)
        local reply = {'ok', sequence, at}
        for _, field in ipairs(redis.call('HGETALL', KEYS[1])) do table.insert(reply, field) end
        return reply
        """)

    /// KEYS: the lot. ARGV: round, now. Closes the lot if open in that round and due;
    /// returns {changed (0 or 1), fields…}, or nil for an unknown lot.
    static let closeScript = RedisScript(
        """
        if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
        local lot = redis.call('HMGET', KEYS[1], 'round', 'isClosed', 'closesAt')
        local changed = 0
        if lot[1] == ARGV[1] and lot[2] ~= '1' and tonumber(ARGV[2]) >= tonumber(lot[3]) then
          redis.call('HSET', KEYS[1], 'isClosed', 1)
          redis.call('HINCRBY', KEYS[1], 'version', 1)
          changed = 1
        end
        local reply = {changed}
        for _, field in ipairs(redis.call('HGETALL', KEYS[1])) do table.insert(reply, field) end
        return reply
        """)

    /// KEYS: the lot. ARGV: round, closesAt. Lists a lot closed in that round again, with
    /// no bids; returns {changed (0 or 1), fields…}, or nil for an unknown lot.
    static let relistScript = RedisScript(
        """
        if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
        local lot = redis.call('HMGET', KEYS[1], 'round', 'isClosed')
        local changed = 0
        if lot[1] == ARGV[1] and lot[2] == '1' then
          redis.call('HSET', KEYS[1], 'round', tonumber(ARGV[1]) + 1, 'closesAt', ARGV[2], 'isClosed', 0,
            'bidCount', 0, 'highCents', 0, 'highBidder', '')
          redis.call('HINCRBY', KEYS[1], 'version', 1)
          changed = 1
        end
        local reply = {changed}
        for _, field in ipairs(redis.call('HGETALL', KEYS[1])) do table.insert(reply, field) end
        return reply
        """)
}
