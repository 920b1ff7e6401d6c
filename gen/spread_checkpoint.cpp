#include "gen/spread_checkpoint.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace feerie {

namespace {

CheckpointPart part_of(const Partition& partition) { return CheckpointPart{partition.rank(), partition.ranks()}; }

bool same_state(const SolverState& a, const SolverState& b) {
  return a.next_ply == b.next_ply && a.max_plies == b.max_plies;
}

// What one process found of its checkpoints, as it tells the others.
struct HeldCheckpoints {
  std::vector<SolverState> states;    // of its files that belong to this solve
  std::vector<std::string> problems;  // why its other files cannot be used (a missing one is none)
};

std::string to_text(const HeldCheckpoints& held) {
  nlohmann::json states = nlohmann::json::array();
  for (const SolverState& s : held.states) states.push_back({s.next_ply, s.max_plies});
  return nlohmann::json{{"states", states}, {"problems", held.problems}}.dump();
}

// The other processes' words, which this program wrote (to_text); anything else is an
// internal error.
Expected<HeldCheckpoints> from_text(const std::string& text, int rank) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  HeldCheckpoints held;
  try {
    for (const nlohmann::json& s : json.at("states"))
      held.states.push_back(SolverState{s.at(0).get<int>(), s.at(1).get<int>()});
    held.problems = json.at("problems").get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception&) {
    return error(ErrorKind::Internal,
                 "process " + std::to_string(rank) + " described its checkpoints in words not understood");
  }
  return held;
}

std::string passes_text(const std::vector<SolverState>& states) {
  std::string text;
  for (const SolverState& s : states) text += (text.empty() ? "" : " and ") + std::to_string(s.next_ply);
  return text;
}

// Why no pass is common to every process: what each one holds.
std::string why_no_common_state(const std::vector<HeldCheckpoints>& held) {
  std::string why;
  for (std::size_t rank = 0; rank < held.size(); ++rank) {
    const std::string process = "process " + std::to_string(rank);
    std::string said;
    if (!held[rank].states.empty())
      said = process + " holds pass" + (held[rank].states.size() > 1 ? "es " : " ") + passes_text(held[rank].states);
    for (const std::string& problem : held[rank].problems)
      said += (said.empty() ? "" : "; ") + process + ": " + problem;
    if (said.empty()) said = process + " has no checkpoint";
    why += (why.empty() ? "" : "; ") + said;
  }
  return "the processes hold no pass in common (" + why + ")";
}

// The same words in every process: the messages of the processes that failed, by rank.
std::string failures_text(const std::vector<std::string>& messages) {
  std::string text;
  for (std::size_t rank = 0; rank < messages.size(); ++rank)
    if (!messages[rank].empty())
      text += (text.empty() ? "" : "; ") + ("process " + std::to_string(rank) + ": ") + messages[rank];
  return text;
}

}  // namespace

std::optional<SolverState> latest_common_state(const std::vector<std::vector<SolverState>>& held) {
  if (held.empty()) return std::nullopt;
  std::optional<SolverState> latest;
  for (const SolverState& candidate : held.front()) {
    const bool everywhere = std::all_of(held.begin(), held.end(), [&](const std::vector<SolverState>& states) {
      return std::any_of(states.begin(), states.end(), [&](const SolverState& s) { return same_state(s, candidate); });
    });
    if (everywhere && (!latest || candidate.next_ply > latest->next_ply)) latest = candidate;
  }
  return latest;
}

Expected<std::string> save_spread_checkpoint(Partition& partition, const std::string& checkpoint,
                                             const std::string& condition, const std::vector<const Indexer*>& members,
                                             const SolverState& state, const std::vector<MemberValues>& values,
                                             int threads) {
  const std::string pending = pending_checkpoint_path(checkpoint);
  const Status written = save_checkpoint(pending, condition, members, state, values, threads, part_of(partition));
  Expected<std::vector<std::string>> said = partition.all_gather(written ? "" : written.error_message());
  if (!said) return said.error();
  const std::string failed = failures_text(*said);
  std::error_code ec;
  if (!failed.empty()) {
    std::filesystem::remove(pending, ec);
    return failed;
  }
  // A rename that fails leaves the pending file, which a resume reads as well.
  std::filesystem::rename(pending, checkpoint, ec);
  return std::string();
}

Expected<SpreadResume> load_spread_checkpoint(Partition& partition, const std::string& checkpoint,
                                              const std::string& condition, const std::vector<const Indexer*>& members,
                                              std::vector<MemberValues>& values) {
  const CheckpointPart part = part_of(partition);
  const std::string files[2] = {checkpoint, pending_checkpoint_path(checkpoint)};
  HeldCheckpoints mine;
  std::optional<SolverState> file_state[2];
  for (int f = 0; f < 2; ++f) {
    Expected<SolverState> state = read_checkpoint_state(files[f], condition, members, part);
    if (state) {
      file_state[f] = *state;
      mine.states.push_back(*state);
    } else if (state.error_kind() != ErrorKind::NotFound) {
      mine.problems.push_back(state.error_message());
    }
  }
  Expected<std::vector<std::string>> said = partition.all_gather(to_text(mine));
  if (!said) return said.error();
  std::vector<HeldCheckpoints> held;
  std::vector<std::vector<SolverState>> states;
  for (std::size_t rank = 0; rank < said->size(); ++rank) {
    Expected<HeldCheckpoints> h = from_text((*said)[rank], int(rank));
    if (!h) return h.error();
    held.push_back(*h);
    states.push_back(h->states);
  }
  const std::optional<SolverState> common = latest_common_state(states);
  if (!common) {
    const bool nothing = std::all_of(held.begin(), held.end(),
                                     [](const HeldCheckpoints& h) { return h.states.empty() && h.problems.empty(); });
    return SpreadResume{std::nullopt, nothing ? std::string() : why_no_common_state(held)};
  }
  const int f = file_state[0] && same_state(*file_state[0], *common) ? 0 : 1;
  Expected<SolverState> loaded = load_checkpoint(files[f], condition, members, values, part);
  Expected<std::vector<std::string>> failures = partition.all_gather(loaded ? "" : loaded.error_message());
  if (!failures) return failures.error();
  if (const std::string failed = failures_text(*failures); !failed.empty()) return SpreadResume{std::nullopt, failed};
  return SpreadResume{common, ""};
}

}  // namespace feerie
