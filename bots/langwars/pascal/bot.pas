{ Lang Wars sample bot (Pascal): propagates the languages with the best
  attention to competition ratio.
  It prints READY, reads the settings (turns, players, languages, attention
  degrees), then each turn reads the revealed believers, its own real
  believers and (on workdays) how often each language was propagated in the
  last holiday. It estimates every opponent's believers as the revealed ones
  plus an equal share of the holiday propagations that were not its own. Then,
  pick by pick (5 on a workday, 2 on a holiday), it takes the language with
  the highest attention / (1 + |best opponent's believers - its own|):
  languages it can just win or just keep, weighted by what they are worth
  (ties: the lowest language). It prints the picks on one line, and exits at
  end of input or after the last turn. Deterministic. }
program bot;
{$mode objfpc}{$H+}

const
  MaxLangs = 64;
  MaxPlayers = 16;

var
  buf: string = '';
  at: longint = 1;

{ The next whitespace-separated word; exits (code 0) at end of input. }
function Token: string;
var
  start: longint;
begin
  while true do
  begin
    while (at <= length(buf)) and (buf[at] in [' ', #9, #13, #10]) do inc(at);
    if at <= length(buf) then break;
    if eof(input) then halt(0);
    readln(buf);
    at := 1;
  end;
  start := at;
  while (at <= length(buf)) and not (buf[at] in [' ', #9, #13, #10]) do inc(at);
  Token := copy(buf, start, at - start);
end;

{ The next word as an integer (0 when it is not one); exits at end of input. }
function Number: longint;
var
  v, code: longint;
begin
  val(Token, v, code);
  if code <> 0 then v := 0;
  Number := v;
end;

var
  turns, players, langs, t, l, j, k, picks, choice: longint;
  day, line, s: string;
  workday: boolean;
  attention, mine, best: array[0..MaxLangs - 1] of double;
  holidayTotal, own: array[0..MaxLangs - 1] of longint;
  revealed: array[0..MaxLangs - 1, 0..MaxPlayers - 1] of longint;
  hidden, other, v, top: double;

begin
  writeln('READY');
  flush(output);
  turns := Number;
  players := Number;
  langs := Number;
  if (players < 2) or (players > MaxPlayers) or (langs < 1) or (langs > MaxLangs) then halt(0);
  for l := 0 to langs - 1 do
  begin
    attention[l] := Number;
    holidayTotal[l] := 0;  { all players' holiday propagations so far }
  end;
  for t := 1 to turns do
  begin
    Number;  { the turn }
    day := Token;
    for l := 0 to langs - 1 do
      for j := 0 to players - 1 do
        revealed[l, j] := Number;
    for l := 0 to langs - 1 do
      own[l] := Number;
    workday := day = 'W';
    if workday then
      for l := 0 to langs - 1 do
        holidayTotal[l] := holidayTotal[l] + Number;
    for l := 0 to langs - 1 do
    begin
      { Holiday believers of the others: all holiday picks minus its own. }
      hidden := holidayTotal[l] - (own[l] - revealed[l, 0]);
      if hidden < 0 then hidden := 0;
      mine[l] := own[l];
      best[l] := 0;
      for j := 1 to players - 1 do
      begin
        other := revealed[l, j] + hidden / (players - 1);
        if other > best[l] then best[l] := other;
      end;
    end;
    if workday then picks := 5 else picks := 2;
    line := '';
    for k := 0 to picks - 1 do
    begin
      choice := 0;
      top := -1;
      for l := 0 to langs - 1 do
      begin
        v := attention[l] / (1.0 + abs(best[l] - mine[l]));
        if v > top then
        begin
          top := v;
          choice := l;
        end;
      end;
      mine[choice] := mine[choice] + 1;
      if k > 0 then line := line + ' ';
      Str(choice, s);
      line := line + s;
    end;
    { A note of its picks (listed by the viewer: docs/viewer.md, Drawing on the board). }
    writeln(StdErr, '@judge note layer=sample picked ', line);
    flush(StdErr);
    writeln(line);
    flush(output);
  end;
end.
