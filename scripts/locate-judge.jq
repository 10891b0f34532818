# Judges one `collbench locate -J` document against what was faulted, for
# scripts/verdict-quality.sh (a real cluster) and scripts/verdict-sim.sh (a simulated one):
#   jq -L scripts -r --arg want "KIND WHERE..." 'include "locate-judge"; judge($want)' FILE
# $want: "" (clean), "host H...", "link A B" or "switch S". Prints exact (the fault named,
# nothing else), missed (the fault not named, nothing innocent named) or false (something
# innocent named).
#
# A finding is right when it lies inside the fault: on a faulted host; for a link, a pair or
# link whose two hosts are the link's; for an uplink, a switch finding that names that switch
# (with two leaves, the path between them names both).
def right($w; $faulty): if $w[0] == "link" then (.hosts | sort) == ($faulty | sort)
                        elif $w[0] == "switch" then .subject == "switch" and (.label | test("switch " + $faulty[0] + "( |$)"))
                        else ([.hosts[] | select(. as $h | $faulty | index($h))] | length) == (.hosts | length) end;
def judge($want):
  ($want | split(" ") | map(select(length > 0))) as $w
  | (if ($w | length) == 0 then [] else $w[1:] end) as $faulty
  | [.findings[] | {subject, hosts, "label": .label}] as $f
  | ([$f[] | select(right($w; $faulty) | not)] | length) as $innocent
  | (if ($faulty | length) == 0 then true
     elif $w[0] == "link" or $w[0] == "switch" then ([$f[] | select(right($w; $faulty))] | length) > 0
     else all($faulty[]; . as $h | [$f[] | select(.hosts | index($h))] | length > 0) end) as $found
  | if $innocent > 0 then "false"
    elif ($faulty | length) == 0 then (if ($f | length) == 0 then "exact" else "false" end)
    elif $found then "exact" else "missed" end;
