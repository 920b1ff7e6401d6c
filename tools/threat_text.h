// How `probe --problem` and `mine --sound=threat` show a problemist's reading of a
// direct mate (study/threat_sound.h): the key, what it threatens, a double threat.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rules/san.h"
#include "study/threat_sound.h"

namespace feerie::cli {

inline const char* key_kind_name(KeyKind k) {
  return k == KeyKind::Threat ? "threat" : k == KeyKind::Zugzwang ? "zugzwang" : "check";
}

// The key's threats in SAN, played from the pass after the key.
inline std::vector<std::string> threats_san(const ThreatReading& r, const RuleSet& rules) {
  std::vector<std::string> out;
  for (Move m : r.threats) out.push_back(to_san(r.threat_position, m, rules));
  return out;
}

// "key Kd2: threat Qg1# or Qb1# (double threat)", "key Qxf2: zugzwang", "key Qg1+: check";
// empty without a unique key. `pos` is the problem's position.
inline std::string threat_text(const Position& pos, const ThreatReading& r, const RuleSet& rules) {
  if (r.keys != 1) return {};
  std::string text = "key " + to_san(pos, r.key, rules) + ": " + key_kind_name(r.key_kind);
  const std::vector<std::string> threats = threats_san(r, rules);
  for (std::size_t i = 0; i < threats.size(); ++i) text += (i == 0 ? " " : " or ") + threats[i];
  if (r.double_threat()) text += " (double threat)";
  return text;
}

// "key_kind", "threats_san", "double_threat" (with a unique key).
inline void add_threat_json(nlohmann::ordered_json& j, const ThreatReading& r, const RuleSet& rules) {
  if (r.keys != 1) return;
  j["key_kind"] = key_kind_name(r.key_kind);
  j["threats_san"] = threats_san(r, rules);
  j["double_threat"] = r.double_threat();
}

}  // namespace feerie::cli
