{ The referee of {{.Title}} (rules.md): the judge writes one line of JSON to its stdin, and it
  answers one line on its stdout, as docs/referee.md says. Its stderr is for you: the judge
  keeps the end of it when the referee fails. }
program referee;

{$mode objfpc}{$H+}

uses SysUtils;

type
  TStrings = array of string;

{ A small JSON reader, enough for the judge's lines: Elements splits an object's or an
  array's text into its members' texts ("key":value for an object), Member finds an object's
  member, Str decodes a string. }

function SkipValue(const s: string; i: Integer): Integer;
var depth: Integer; inStr: Boolean;
begin
  depth := 0; inStr := False;
  while i <= Length(s) do
  begin
    if inStr then
    begin
      if s[i] = '\' then Inc(i)
      else if s[i] = '"' then inStr := False;
    end
    else
      case s[i] of
        '"': inStr := True;
        '{', '[': Inc(depth);
        '}', ']': begin if depth = 0 then Exit(i); Dec(depth); end;
        ',': if depth = 0 then Exit(i);
      end;
    Inc(i);
  end;
  Result := i;
end;

function Elements(const s: string): TStrings;
var i, j: Integer; t: string;
begin
  Result := nil;
  t := Trim(s);
  i := 2; // after the opening brace or bracket
  while i < Length(t) do
  begin
    j := SkipValue(t, i);
    if Trim(Copy(t, i, j - i)) <> '' then
    begin
      SetLength(Result, Length(Result) + 1);
      Result[High(Result)] := Trim(Copy(t, i, j - i));
    end;
    i := j + 1;
  end;
end;

function Str(const raw: string): string;
var i, cp, lo: Integer;
  procedure Put(c: Integer);
  begin
    if c < $80 then Result := Result + Chr(c)
    else if c < $800 then Result := Result + Chr($C0 or (c shr 6)) + Chr($80 or (c and $3F))
    else if c < $10000 then Result := Result + Chr($E0 or (c shr 12)) + Chr($80 or ((c shr 6) and $3F)) + Chr($80 or (c and $3F))
    else Result := Result + Chr($F0 or (c shr 18)) + Chr($80 or ((c shr 12) and $3F)) + Chr($80 or ((c shr 6) and $3F)) + Chr($80 or (c and $3F));
  end;
begin
  Result := '';
  i := 2; { after the opening quote }
  while (i <= Length(raw)) and (raw[i] <> '"') do
  begin
    if raw[i] <> '\' then begin Result := Result + raw[i]; Inc(i); Continue; end;
    Inc(i);
    case raw[i] of
      'n': Result := Result + #10;
      't': Result := Result + #9;
      'r': Result := Result + #13;
      'b': Result := Result + #8;
      'f': Result := Result + #12;
      'u':
        begin
          cp := StrToInt('$' + Copy(raw, i + 1, 4)); Inc(i, 4);
          if (cp >= $D800) and (cp < $DC00) and (Copy(raw, i + 1, 2) = '\u') then
          begin
            lo := StrToInt('$' + Copy(raw, i + 3, 4)); Inc(i, 6);
            cp := $10000 + ((cp - $D800) shl 10) + (lo - $DC00);
          end;
          Put(cp);
        end;
    else Result := Result + raw[i]; { \" \\ and \/ }
    end;
    Inc(i);
  end;
end;

{ Member is the text of the value of an object's member key, or '' when it has none. }
function Member(const obj, key: string): string;
var e: string; k: Integer;
begin
  Result := '';
  for e in Elements(obj) do
  begin
    k := 2; { the key's closing quote }
    while e[k] <> '"' do
    begin
      if e[k] = '\' then Inc(k);
      Inc(k);
    end;
    if Str(Copy(e, 1, k)) = key then
    begin
      Inc(k);
      while e[k] <> ':' do Inc(k);
      Exit(Trim(Copy(e, k + 1, MaxInt)));
    end;
  end;
end;

var
  seed: QWord;
  n, turns, turn, asked: Integer; { asked: the player whose answer is awaited this turn }
  scores, picks: array of Integer; { picks: each player's number this turn, 0 for none }
  outs: array of Boolean;

{ Every random choice comes from the seed: the same seed and answers give the same match,
  which is how the judge re-judges a replay. }
function Bonus: Integer;
begin
  Result := Integer((seed mod 9 + QWord(turn)) mod 9) + 1;
end;

function List: string;
var k: Integer;
begin
  Result := '[';
  for k := 0 to n - 1 do
  begin
    if k > 0 then Result := Result + ',';
    Result := Result + IntToStr(scores[k]);
  end;
  Result := Result + ']';
end;

function View: string;
begin
  Result := '{"scores":' + List + ',"state":{"turn":' + IntToStr(turn) + '}}';
end;

{ Next is what comes next: the request to the next player of the turn, or the end. }
function Next: string;
var p, q, best: Integer; allOut: Boolean;
begin
  while True do
  begin
    p := asked + 1;
    while (p < n) and outs[p] do Inc(p);
    if p < n then
    begin
      asked := p;
      Exit('"next":[{"player":' + IntToStr(p) + ',"turn":' + IntToStr(turn) + ',"send":"TURN ' + IntToStr(turn) +
        '\n","expect":1,"limit_us":1000000}]');
    end;
    best := 0;
    for q := 0 to n - 1 do if picks[q] > best then best := picks[q];
    for q := 0 to n - 1 do
      if picks[q] > 0 then
      begin
        if picks[q] = best then Inc(scores[q]);
        if picks[q] = Bonus then Inc(scores[q]);
        picks[q] := 0;
      end;
    Inc(turn);
    asked := -1;
    allOut := True;
    for q := 0 to n - 1 do allOut := allOut and outs[q];
    if (turn > turns) or allOut then Exit('"next":[],"done":{"scores":' + List + '}');
  end;
end;

function TrimAnswer(const s: string): string;
var a, b: Integer;
begin
  a := 1; b := Length(s);
  while (a <= b) and (s[a] in [' ', #9, #13]) do Inc(a);
  while (b >= a) and (s[b] in [' ', #9, #13]) do Dec(b);
  Result := Copy(s, a, b - a + 1);
end;

{ Reply is the verdict on a player's answer: null, or the rule it broke. }
function Reply(const m: string): string;
var p: Integer; line: string;
begin
  p := StrToInt(Member(m, 'player'));
  if Member(m, 'fault') <> 'null' then { a timeout or a crash the judge saw: the player is out }
  begin
    outs[p] := True;
    Exit('null');
  end;
  line := TrimAnswer(Str(Elements(Member(m, 'lines'))[0]));
  if (Length(line) <> 1) or not (line[1] in ['1'..'9']) then
  begin
    outs[p] := True;
    Exit('{"kind":"illegal_move","detail":"not a number from 1 to 9"}');
  end;
  picks[p] := Ord(line[1]) - Ord('0');
  Result := 'null';
end;

var
  line, answer, opts, options, e: string;
  k: Integer;
begin
  while not EOF(Input) do
  begin
    ReadLn(line);
    if Str(Member(line, 'type')) = 'start' then
    begin
      options := Member(line, 'options');
      seed := StrToQWord(Member(line, 'seed'));
      n := StrToInt(Member(line, 'players'));
      turns := StrToInt(Str(Member(options, 'turns')));
      turn := 1; asked := -1;
      SetLength(scores, n); SetLength(picks, n); SetLength(outs, n);
      for k := 0 to n - 1 do begin scores[k] := 0; picks[k] := 0; outs[k] := False; end;
      opts := '';
      for e in Elements(options) do
      begin
        if opts <> '' then opts := opts + ',';
        opts := opts + e; { every option, the defaults applied, as the judge wrote them }
      end;
      answer := '{"type":"setup","options":{' + opts + '},"memory":' +
        IntToStr(Int64(StrToInt(Str(Member(options, 'memory')))) shl 20);
    end
    else
      answer := '{"type":"judged","fault":' + Reply(line);
    answer := answer + ',' + Next;
    answer := answer + ',"view":' + View + '}'; { the picture once the answer is judged }
    WriteLn(answer);
    Flush(Output); { the judge waits for the line }
  end;
end.
