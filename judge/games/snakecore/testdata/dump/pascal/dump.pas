{ Prints what the unit Snake reads from each request, in the layout of the library tests.
  Written in Free Pascal's default mode on purpose: the unit must serve such programs. }
program dump;

uses Snake;

var
  a: TAreaInfo;
  r, k, i, x, y, fr, em: longint;
  p: TPython;
begin
  repeat
    r := ReadRequest(a);
    if r = RequestName then
      writeln('name ', CleanName('a name that is much longer than thirty-two bytes'#9))
    else if r = RequestAction then
    begin
      writeln('turn ', a.Turn, ' size ', a.Size, ' pythons ', a.PythonCount);
      for y := 0 to a.Size - 1 do
        writeln(a.Rows[y]);
      for k := 0 to a.PythonCount - 1 do
      begin
        p := a.Pythons[k];
        write('py ', k, ' ', p.Protection, ' ', p.Len);
        for i := 0 to p.Len - 1 do
          write(' ', p.Parts[i].X, ',', p.Parts[i].Y);
        write(' |');
        for i := 0 to p.Len - 1 do
          write(' ', a.Owner(p.Parts[i].X, p.Parts[i].Y), ':', a.PartIndex(p.Parts[i].X, p.Parts[i].Y));
        writeln(' head ', p.Parts[0].X, ',', p.Parts[0].Y, ' tail ', p.Parts[p.Len - 1].X, ',', p.Parts[p.Len - 1].Y);
      end;
      fr := 0;
      em := 0;
      for y := 0 to a.Size - 1 do
        for x := 0 to a.Size - 1 do
        begin
          if a.IsFreeBlock(x, y) then
            inc(fr);
          if a.IsEmpty(x, y) then
            inc(em);
        end;
      writeln('free ', fr, ' empty ', em, ' edge ', a.Cell(-1, 0), a.Cell(0, a.Size), a.Cell(a.Pythons[0].Parts[0].X, a.Pythons[0].Parts[0].Y));
    end;
  until r = RequestEnd;
end.
