# Sourced by .ci/run: steps that run in the foreground or side by side, each timed, its time kept for the summary.
#   step <name> <command...>        runs now, output straight to the log
#   start_step <name> <command...>  runs in the background, output to $results/logs/<name>.log (printed when it ends)
#   start_step_after <step> <name> <command...>  the same, once that background step ended well
#   wait_steps                      waits for every background step, prints its output and outcome
#   wait_for_step <name>            waits until that background step ended (from any process); fails if it failed
# Each step appends `<name>\t<seconds>\t<ok|FAILED>\t<started, s after CI began>` to $results/steps.tsv, which
# .ci/summarize.js prints. A failed step's name goes into failed_steps (the summary counts failures without results).

failed_steps=()
ci_started=$SECONDS
background_pids=()
background_names=()

record_step() { # record_step <name> <seconds> <ok|FAILED> <start offset>
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$results/steps.tsv"
	echo "::: $1 $3 ($2 s)"
	[ "$3" = ok ] || failed_steps+=("$1")
}

step() {
	local name=$1; shift
	echo "::: $name"
	local started=$SECONDS
	if "$@"; then record_step "$name" $((SECONDS - started)) ok $((started - ci_started))
	else record_step "$name" $((SECONDS - started)) FAILED $((started - ci_started)); fi
}

# write_status <name> <seconds> <ok|FAILED> <start offset>: whole or not at all (wait_for_step reads it meanwhile).
write_status() {
	local file
	file="$(log_file "$1").status"
	printf '%s\t%s\t%s\n' "$2" "$3" "$4" >"$file.partial" && mv "$file.partial" "$file"
}

log_file() { echo "$results/logs/$(echo "$1" | tr -c 'A-Za-z0-9.\n-' '_').log"; }

start_step() {
	start_step_after "" "$@"
}

# start_step_after <step> <name> <command...>: in the background like start_step, once <step> (a background step)
# ended well; its time counts from then. An empty <step> starts it at once.
start_step_after() {
	local after=$1 name=$2; shift 2
	mkdir -p "$results/logs"
	echo "::: $name (started beside the others${after:+ once $after ended}, output at the end: $(log_file "$name"))"
	(
		if [ -n "$after" ] && ! wait_for_step "$after"; then
			write_status "$name" 0 FAILED $((SECONDS - ci_started))
			exit 1
		fi
		started=$((SECONDS - ci_started))
		begun=$SECONDS
		if "$@"; then status=ok; else status=FAILED; fi
		write_status "$name" $((SECONDS - begun)) "$status" "$started"
	) >"$(log_file "$name")" 2>&1 &
	background_pids+=("$!")
	background_names+=("$name")
}

wait_steps() {
	local i name seconds status started
	for i in "${!background_pids[@]}"; do
		name=${background_names[$i]}
		wait "${background_pids[$i]}"
		echo "::: $name: output"
		cat "$(log_file "$name")"
		if IFS=$'\t' read -r seconds status started <"$(log_file "$name").status"; then
			record_step "$name" "$seconds" "$status" "$started"
		else
			record_step "$name" 0 FAILED 0
		fi
	done
	background_pids=()
	background_names=()
}

wait_for_step() {
	local status_file
	status_file="$(log_file "$1").status"
	until [ -f "$status_file" ]; do sleep 2; done
	grep -q $'\tok\t' "$status_file" || { echo "::: $1 failed: see $(log_file "$1")"; return 1; }
}
