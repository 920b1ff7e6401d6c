// The end of a solve spread over processes (gen/partition.h): the statistics of the whole
// table from every process's part, and the table file written without gathering the
// values onto one process. Both give exactly what one process alone gives: the file is
// byte-identical to write_table()'s.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "gen/partition.h"
#include "gen/value_store.h"  // MemberValues
#include "probe/indexer.h"
#include "probe/table_file.h"

namespace feerie {

// The statistics of the table of `indexer` (every process passes its own part, the
// values of `range`, and gets the whole table's). Collective.
Expected<std::array<SideStatistics, 2>> partitioned_statistics(Partition& partition, const Indexer& indexer,
                                                               const MemberValues& values, OwnedRange range,
                                                               int threads);

// Writes the table at `path` (header complete but for its blocks): every process
// compresses its own blocks; their sizes and checksums go to every process, which makes
// the header from them; the processes write their pieces into one temporary file at
// their offsets (process 0 the prefix and header too), then process 0 renames it. No
// file appears under `path` unless every piece is written. Collective.
Status write_partitioned_table(Partition& partition, const std::string& path, TableHeader header,
                               const MemberValues& values, OwnedRange range);

}  // namespace feerie
