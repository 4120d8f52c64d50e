{ On The Run sample bot (Pascal). Reads the map from connect.txt, then plays the
  role named on its first input line.
  Fugitive: starts on the city farthest (fewest connections of any type) from
  the nearest detective; each turn takes the connection whose city is farthest
  from the detectives, never a detective's city unless every move is one.
  Detectives: start on the four cities with the most connections; they keep
  the set of cities where the fugitive can be (its announced city, widened
  each turn along connections of the type it used) and each detective steps to
  the neighbour nearest to that set, the four new cities made distinct by a
  small backtracking search. Exits on "Quit", at end of input, and after its
  50th move. Deterministic. }
program bot;
{$mode objfpc}{$H+}

const
  MaxCity = 1000;   { the game has at most 200 cities }
  MaxLinks = 1024;  { connections kept per city (more than any map has) }
  Far = 1 shl 20;

type
  TCityBool = array[0..MaxCity] of boolean;
  TCityInt = array[0..MaxCity] of longint;
  TFour = array[0..3] of longint;

var
  n: longint = 0;
  deg: TCityInt;                                    { deg[c]: connections of city c }
  adjTo: array[0..MaxCity, 0..MaxLinks - 1] of longint;
  adjType: array[0..MaxCity, 0..MaxLinks - 1] of char;

{ Removes spaces, tabs and CR at both ends. }
function Trim(const s: string): string;
var
  a, b: longint;
begin
  a := 1;
  b := length(s);
  while (a <= b) and (s[a] in [' ', #9, #13, #10]) do inc(a);
  while (b >= a) and (s[b] in [' ', #9, #13, #10]) do dec(b);
  Trim := copy(s, a, b - a + 1);
end;

{ Reads one trimmed line; exits (code 0) at end of file or on "Quit". }
function ReadLineOrExit: string;
var
  s: string;
begin
  if eof(input) then halt(0);
  readln(s);
  s := Trim(s);
  if s = 'Quit' then halt(0);
  ReadLineOrExit := s;
end;

{ A dot on city c, one an answer (drawn by the viewer: docs/viewer.md, Drawing on the board). }
procedure MarkCity(c: longint);
begin
  writeln(StdErr, '@judge dot ', c, ' 0 layer=sample');
  flush(StdErr);
end;

{ The first integer in s at or after position from (non-digits are skipped), or -1. }
function FirstNumber(const s: string; from: longint): longint;
var
  i, x: longint;
begin
  i := from;
  while (i <= length(s)) and not (s[i] in ['0'..'9']) do inc(i);
  if i > length(s) then
  begin
    FirstNumber := -1;
    exit;
  end;
  x := 0;
  while (i <= length(s)) and (s[i] in ['0'..'9']) do
  begin
    if x < 100000000 then x := x * 10 + (ord(s[i]) - ord('0'));
    inc(i);
  end;
  FirstNumber := x;
end;

procedure AddLink(a: longint; t: char; b: longint);
begin
  if deg[a] >= MaxLinks then exit;
  adjTo[a, deg[a]] := b;
  adjType[a, deg[a]] := t;
  inc(deg[a]);
end;

procedure ReadMap;
var
  f: text;
  line: string;
  a, b, dash: longint;
begin
  assign(f, 'connect.txt');
  reset(f);
  while (n <= 0) and not eof(f) do
  begin
    readln(f, line);
    n := FirstNumber(line, 1);
  end;
  if n < 0 then n := 0;
  if n > MaxCity then n := MaxCity;
  for a := 0 to n do deg[a] := 0;
  while not eof(f) do
  begin
    readln(f, line);
    line := Trim(line);
    if line = 'END' then break;
    if line = '' then continue;
    a := FirstNumber(line, 1);
    dash := pos('-', line);
    if (a < 0) or (dash = 0) then continue;
    b := FirstNumber(line, dash + 1);
    if (a < 1) or (a > n) or (b < 1) or (b > n) or (a = b) then continue;
    AddLink(a, line[1], b);
    AddLink(b, line[1], a);
  end;
  close(f);
end;

{ Breadth-first distances (connections of any type) from the cities marked in src. }
procedure Distances(const src: TCityBool; var dist: TCityInt);
var
  queue: TCityInt;
  head, tail, c, k, t: longint;
begin
  tail := 0;
  for c := 1 to n do
  begin
    dist[c] := Far;
    if src[c] then
    begin
      dist[c] := 0;
      queue[tail] := c;
      inc(tail);
    end;
  end;
  head := 0;
  while head < tail do
  begin
    c := queue[head];
    inc(head);
    for k := 0 to deg[c] - 1 do
    begin
      t := adjTo[c, k];
      if dist[t] > dist[c] + 1 then
      begin
        dist[t] := dist[c] + 1;
        queue[tail] := t;
        inc(tail);
      end;
    end;
  end;
end;

procedure ReadFour(var det: TFour);
var
  i: longint;
begin
  for i := 0 to 3 do det[i] := FirstNumber(ReadLineOrExit, 1);
end;

procedure DetectiveMap(const det: TFour; var m: TCityBool);
var
  i: longint;
begin
  for i := 0 to n do m[i] := false;
  for i := 0 to 3 do
    if (det[i] >= 1) and (det[i] <= n) then m[det[i]] := true;
end;

procedure PlayFugitive;
var
  det: TFour;
  isDet: TCityBool;
  dist: TCityInt;
  cur, c, k, best, turn: longint;
  t: char;
begin
  ReadFour(det);
  DetectiveMap(det, isDet);
  Distances(isDet, dist);
  cur := 0;
  for c := 1 to n do
    if not isDet[c] and ((cur = 0) or (dist[c] > dist[cur])) then cur := c;
  MarkCity(cur);
  writeln(cur);
  flush(output);

  for turn := 1 to 50 do
  begin
    DetectiveMap(det, isDet);
    Distances(isDet, dist);
    best := -1;
    for k := 0 to deg[cur] - 1 do
    begin
      if isDet[adjTo[cur, k]] then continue;
      if (best < 0) or (dist[adjTo[cur, k]] > dist[adjTo[cur, best]]) then best := k;
    end;
    if best < 0 then best := 0; { every move ends on a detective: caught anyway }
    t := adjType[cur, best];
    cur := adjTo[cur, best];
    MarkCity(cur);
    writeln(t, ' ', cur);
    flush(output);
    if turn = 50 then break;
    ReadFour(det);
  end;
end;

var
  choices: array[0..3, 0..MaxLinks - 1] of longint; { neighbours of each detective, best first }
  choiceCount: TFour;
  target: TFour;
  used: TCityBool;

{ Gives detective i (and the following ones) a new city, trying the neighbours
  in the order of choices[i]; false when no distinct assignment exists. }
function AssignMoves(i: longint): boolean;
var
  k, c: longint;
begin
  if i = 4 then
  begin
    AssignMoves := true;
    exit;
  end;
  for k := 0 to choiceCount[i] - 1 do
  begin
    c := choices[i, k];
    if used[c] then continue;
    used[c] := true;
    target[i] := c;
    if AssignMoves(i + 1) then
    begin
      AssignMoves := true;
      exit;
    end;
    used[c] := false;
  end;
  AssignMoves := false;
end;

procedure PlayDetectives;
var
  det: TFour;
  taken, cand, next, isDet: TCityBool;
  dist: TCityInt;
  i, c, k, a, b, x, best, start, city, turn: longint;
  line: string;
  t: char;
  any: boolean;
begin
  { Start on the four cities with the most connections (lowest number on ties). }
  for c := 0 to n do taken[c] := false;
  for i := 0 to 3 do
  begin
    best := 0;
    for c := 1 to n do
      if not taken[c] and ((best = 0) or (deg[c] > deg[best])) then best := c;
    taken[best] := true;
    det[i] := best;
    writeln(best);
  end;
  MarkCity(det[0]);
  flush(output);

  for c := 0 to n do cand[c] := false; { where the fugitive may be }
  start := FirstNumber(ReadLineOrExit, 1);
  if (start >= 1) and (start <= n) then cand[start] := true;

  for turn := 1 to 50 do
  begin
    line := ReadLineOrExit;
    if line = '' then t := 'C' else t := line[1];
    city := FirstNumber(line, 1);
    DetectiveMap(det, isDet);
    for c := 0 to n do next[c] := false;
    any := false;
    if (city >= 1) and (city <= n) then { announcement turn }
    begin
      next[city] := true;
      any := true;
    end
    else
      for c := 1 to n do
        if cand[c] then
          for k := 0 to deg[c] - 1 do
            if (adjType[c, k] = t) and not isDet[adjTo[c, k]] then
            begin
              next[adjTo[c, k]] := true;
              any := true;
            end;
    if not any then { lost track: the fugitive may be anywhere }
      for c := 1 to n do next[c] := not isDet[c];
    cand := next;

    { Each detective prefers the neighbours nearest to the possible cities. }
    Distances(cand, dist);
    for i := 0 to 3 do
    begin
      choiceCount[i] := deg[det[i]];
      for a := 0 to choiceCount[i] - 1 do { stable insertion sort by distance }
      begin
        x := adjTo[det[i], a];
        b := a - 1;
        while (b >= 0) and (dist[choices[i, b]] > dist[x]) do
        begin
          choices[i, b + 1] := choices[i, b];
          dec(b);
        end;
        choices[i, b + 1] := x;
      end;
    end;
    for c := 0 to n do used[c] := false;
    if not AssignMoves(0) then
      for i := 0 to 3 do
        if deg[det[i]] > 0 then target[i] := adjTo[det[i], 0] else target[i] := det[i];
    for i := 0 to 3 do
    begin
      det[i] := target[i];
      cand[det[i]] := false;
      writeln(det[i]);
    end;
    MarkCity(det[0]);
    flush(output);
  end;
end;

begin
  ReadMap;
  if ReadLineOrExit = 'Fugitive' then PlayFugitive
  else PlayDetectives;
end.
